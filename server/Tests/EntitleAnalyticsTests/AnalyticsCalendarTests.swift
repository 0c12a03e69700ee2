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

    /// Day numbers from 1600 to 2400: every day of 1960–2100, every 13th day outside (13 is prime to the
    /// week and to every month length, so each day of the month and leap day comes up).
    static let checkedDays: [Int] = {
        let (first, last) = (AnalyticsCalendar.day(of: ReferenceTime.instant("1600-01-01T00:00:00Z")),
            AnalyticsCalendar.day(of: ReferenceTime.instant("2400-12-31T00:00:00Z")))
        let (dense, denseEnd) = (AnalyticsCalendar.day(of: ReferenceTime.instant("1960-01-01T00:00:00Z")),
            AnalyticsCalendar.day(of: ReferenceTime.instant("2100-12-31T00:00:00Z")))
        return Array(stride(from: first, to: dense, by: 13)) + Array(dense...denseEnd) + Array(stride(from: denseEnd + 1, through: last, by: 13))
    }()

    @Test("dates, months and month boundaries are those of Foundation's Gregorian calendar in UTC, 1600 to 2400")
    func agreesWithFoundation() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var mismatches: [String] = []
        for day in Self.checkedDays {
            let start = AnalyticsCalendar.start(ofDay: day)
            let parts = calendar.dateComponents([.year, .month, .day], from: start)
            let (year, month, dayOfMonth) = (parts.year!, parts.month!, parts.day!)
            let iso = "\(year)-\(month < 10 ? "0" : "")\(month)-\(dayOfMonth < 10 ? "0" : "")\(dayOfMonth)"
            let first = AnalyticsCalendar.day(of: calendar.date(from: DateComponents(year: year, month: month, day: 1))!)
            let next = AnalyticsCalendar.day(of: calendar.date(byAdding: .month, value: 1, to: AnalyticsCalendar.start(ofDay: first))!)
            if AnalyticsCalendar.isoDate(ofDay: day) != iso || AnalyticsCalendar.month(ofDay: day) != String(iso.prefix(7))
                || AnalyticsCalendar.firstDayOfMonth(containing: day) != first || AnalyticsCalendar.firstDayOfNextMonth(after: day) != next
            {
                mismatches.append(iso)
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(Self.checkedDays.count > 70_000)
    }

    @Test("leap days and century years", arguments: [
        ("1600-02-29T12:00:00Z", "1600-03-01"), ("1700-02-28T12:00:00Z", "1700-03-01"), ("1900-02-28T12:00:00Z", "1900-03-01"),
        ("2000-02-29T12:00:00Z", "2000-03-01"), ("2024-02-29T12:00:00Z", "2024-03-01"), ("2100-02-28T12:00:00Z", "2100-03-01"),
        ("1969-12-31T23:59:59Z", "1970-01-01"), ("2025-12-31T00:00:00Z", "2026-01-01"),
    ])
    func boundaries(_ instant: String, _ nextMonth: String) {
        let day = AnalyticsCalendar.day(of: ReferenceTime.instant(instant))
        #expect(AnalyticsCalendar.isoDate(ofDay: day) == String(instant.prefix(10)))
        #expect(AnalyticsCalendar.month(ofDay: day) == String(instant.prefix(7)))
        #expect(AnalyticsCalendar.isoDate(ofDay: AnalyticsCalendar.firstDayOfNextMonth(after: day)) == nextMonth)
        #expect(AnalyticsCalendar.isoDate(ofDay: AnalyticsCalendar.firstDayOfMonth(containing: day)) == String(instant.prefix(8)) + "01")
    }
}
