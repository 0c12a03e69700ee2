import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("ISODuration")
struct ISODurationTests {
    @Test("parses the periods StoreKit writes", arguments: [
        ("P1W", ISODuration(weeks: 1)), ("P1M", ISODuration(months: 1)), ("P2M", ISODuration(months: 2)),
        ("P3M", ISODuration(months: 3)), ("P6M", ISODuration(months: 6)), ("P1Y", ISODuration(years: 1)),
        ("P3D", ISODuration(days: 3)), ("P2W", ISODuration(weeks: 2)), ("P30D", ISODuration(days: 30)),
        ("PT12H", ISODuration(hours: 12)), ("P1DT2H30M", ISODuration(days: 1, hours: 2, minutes: 30)),
    ])
    func parses(text: String, expected: ISODuration) {
        #expect(ISODuration(text) == expected)
        #expect(ISODuration(text)?.description == text)
    }

    @Test("rejects what is not a positive ISO 8601 duration", arguments: [
        "", "P", "1M", "P1", "PM", "P0D", "P-1M", "P1.5M", "P1X", "PT", "P1DT", "P1M1Y", "p1m", "P 1M", "P1MT", "P9999999D", "P1D1D",
    ])
    func rejects(text: String) {
        #expect(ISODuration(text) == nil)
    }

    @Test("adding a month follows the calendar, as the App Store does")
    func calendarArithmetic() {
        let january31 = ReferenceTime.instant("2026-01-31T10:00:00Z")
        #expect(ISODuration(months: 1).added(to: january31) == ReferenceTime.instant("2026-02-28T10:00:00Z"))
        #expect(ISODuration(years: 1).added(to: ReferenceTime.instant("2028-02-29T00:00:00Z")) == ReferenceTime.instant("2029-02-28T00:00:00Z"))
        #expect(ISODuration(weeks: 1).added(to: january31) == ReferenceTime.instant("2026-02-07T10:00:00Z"))
        #expect(ISODuration(days: 30).added(to: ReferenceTime.start) == ReferenceTime.day(30))
    }

    @Test("whole months normalise yearly and monthly periods only", arguments: [
        ("P1M", 1 as Int?), ("P1Y", 12), ("P6M", 6), ("P1W", nil), ("P30D", nil),
    ])
    func wholeMonths(text: String, months: Int?) {
        #expect(ISODuration(text)?.wholeMonths == months)
    }
}
