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

    @Test("a duration without years or months adds exactly what Gregorian UTC adds, given or not", arguments: [
        ISODuration(days: 30), ISODuration(weeks: 1), ISODuration(weeks: 2, days: 3), ISODuration(hours: 12),
        ISODuration(days: 1, hours: 2, minutes: 30, seconds: 59), ISODuration(days: 3_650), ISODuration(seconds: 1),
    ])
    func fixedLengths(_ duration: ISODuration) {
        var components = DateComponents()
        (components.day, components.hour, components.minute, components.second) =
            (duration.weeks * 7 + duration.days, duration.hours, duration.minutes, duration.seconds)
        for instant in ["2026-01-31T10:00:00Z", "2024-02-28T23:59:59Z", "1999-12-31T23:00:00Z", "2026-03-29T00:30:00Z"] {
            for fraction in [0, 0.001, 0.5, 0.999_999] {
                let date = ReferenceTime.instant(instant).addingTimeInterval(fraction)
                let expected = Calendar.gregorianUTC.date(byAdding: components, to: date)
                #expect(duration.added(to: date) == expected, "\(duration) after \(instant) + \(fraction)")
                #expect(duration.added(to: date, in: .gregorianUTC) == expected)
            }
        }
    }

    @Test("in another calendar a day is that calendar's day")
    func otherCalendar() {
        var paris = Calendar(identifier: .gregorian)
        paris.timeZone = TimeZone(identifier: "Europe/Paris")!
        // The night clocks go forward in Paris is 23 hours long.
        let before = ReferenceTime.instant("2026-03-28T12:00:00Z")
        #expect(ISODuration(days: 1).added(to: before, in: paris) == ReferenceTime.instant("2026-03-29T11:00:00Z"))
        #expect(ISODuration(days: 1).added(to: before) == ReferenceTime.instant("2026-03-29T12:00:00Z"))
    }

    @Test("whole months normalise yearly and monthly periods only", arguments: [
        ("P1M", 1 as Int?), ("P1Y", 12), ("P6M", 6), ("P1W", nil), ("P30D", nil),
    ])
    func wholeMonths(text: String, months: Int?) {
        #expect(ISODuration(text)?.wholeMonths == months)
    }
}
