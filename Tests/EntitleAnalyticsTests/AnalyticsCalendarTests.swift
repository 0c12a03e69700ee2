import EntitleAnalytics
import EntitleTestSupport
import Foundation
import Testing

@Suite("AnalyticsCalendar")
struct AnalyticsCalendarTests {
    @Test("days are UTC days from 1970; the last millisecond of a day belongs to it")
    func days() {
        #expect(AnalyticsCalendar.day(of: Date(timeIntervalSince1970: 0)) == 0)
        #expect(AnalyticsCalendar.day(of: Date(timeIntervalSince1970: 86_399.999)) == 0)
        #expect(AnalyticsCalendar.day(of: Date(timeIntervalSince1970: -1)) == -1)
        let day = AnalyticsCalendar.day(of: ReferenceTime.instant("2026-02-28T23:59:59Z"))
        #expect(AnalyticsCalendar.isoDate(ofDay: day) == "2026-02-28")
        #expect(AnalyticsCalendar.month(ofDay: day) == "2026-02")
        #expect(AnalyticsCalendar.isoDate(ofDay: AnalyticsCalendar.firstDayOfNextMonth(after: day)) == "2026-03-01")
    }

    @Test("months of a range are clamped to it")
    func months() {
        let from = AnalyticsCalendar.day(of: ReferenceTime.instant("2025-12-15T00:00:00Z"))
        let to = AnalyticsCalendar.day(of: ReferenceTime.instant("2026-02-10T00:00:00Z"))
        let months = AnalyticsCalendar.months(from: from, to: to)
        #expect(months.map(\.name) == ["2025-12", "2026-01", "2026-02"])
        #expect(months.map { AnalyticsCalendar.isoDate(ofDay: $0.first) } == ["2025-12-15", "2026-01-01", "2026-02-01"])
        #expect(months.map { AnalyticsCalendar.isoDate(ofDay: $0.last) } == ["2025-12-31", "2026-01-31", "2026-02-10"])
        #expect(AnalyticsCalendar.months(from: to, to: from).isEmpty)
    }
}
