import Foundation

/// Days and months as analytics counts them: UTC calendar days numbered from 1970-01-01 (day 0), and
/// months named `YYYY-MM`. A balance on day `d` is the value at the end of that day.
public enum AnalyticsCalendar {
    static let secondsPerDay: Double = 86_400
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// The UTC day `date` falls on.
    public static func day(of date: Date) -> Int {
        Int((date.timeIntervalSince1970 / secondsPerDay).rounded(.down))
    }

    /// The instant day `day` starts.
    public static func start(ofDay day: Int) -> Date {
        Date(timeIntervalSince1970: Double(day) * secondsPerDay)
    }

    /// `YYYY-MM` of day `day`.
    public static func month(ofDay day: Int) -> String {
        let parts = calendar.dateComponents([.year, .month], from: start(ofDay: day))
        return String(format: "%04d-%02d", parts.year ?? 1970, parts.month ?? 1)
    }

    /// `YYYY-MM-DD` of day `day`.
    public static func isoDate(ofDay day: Int) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: start(ofDay: day))
        return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }

    /// The first day of the month `day` falls in.
    public static func firstDayOfMonth(containing day: Int) -> Int {
        let parts = calendar.dateComponents([.year, .month], from: start(ofDay: day))
        return self.day(of: calendar.date(from: parts) ?? start(ofDay: day))
    }

    /// The first day of the month after the one `day` falls in.
    public static func firstDayOfNextMonth(after day: Int) -> Int {
        let first = start(ofDay: firstDayOfMonth(containing: day))
        return self.day(of: calendar.date(byAdding: .month, value: 1, to: first) ?? first)
    }

    /// The months overlapping days `from...to`, each as its first and last day (clamped to the range).
    public static func months(from: Int, to: Int) -> [(name: String, first: Int, last: Int)] {
        guard from <= to else { return [] }
        var result: [(String, Int, Int)] = []
        var start = from
        while start <= to {
            let next = firstDayOfNextMonth(after: start)
            result.append((month(ofDay: start), start, min(next - 1, to)))
            start = next
        }
        return result
    }
}
