import EntitleCore
import Foundation

/// Days and months as analytics counts them: UTC calendar days numbered from 1970-01-01 (day 0), and
/// months named `YYYY-MM`. A balance on day `d` is the value at the end of that day.
public enum AnalyticsCalendar {
    static let secondsPerDay: Double = 86_400

    /// The days analytics counts in: years 0 to 9999 (an instant outside them counts on the nearest).
    static let days = -719_528...2_932_896

    /// The UTC day `date` falls on, within ``days``.
    public static func day(of date: Date) -> Int {
        min(max(Int(saturating: date.timeIntervalSince1970 / secondsPerDay, rounding: .down), days.lowerBound), days.upperBound)
    }

    /// The instant day `day` starts.
    public static func start(ofDay day: Int) -> Date {
        Date(timeIntervalSince1970: Double(day) * secondsPerDay)
    }

    /// `YYYY-MM` of day `day`.
    public static func month(ofDay day: Int) -> String {
        CivilDays.name(ofDay: day, withDay: false)
    }

    /// The day `text` names as `YYYY-MM-DD` (four, two and two digits, a real calendar day); `nil` otherwise.
    public static func day(ofISODate text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].utf8.count == 4, parts[1].utf8.count == 2, parts[2].utf8.count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { (48...57).contains($0) } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        let number = days(year: year, month: month, day: day)
        let named = civil(number)
        return named.year == year && named.month == month && named.day == day ? number : nil
    }

    /// `YYYY-MM-DD` of day `day`.
    public static func isoDate(ofDay day: Int) -> String {
        CivilDays.name(ofDay: day, withDay: true)
    }

    /// The first day of the month `day` falls in.
    public static func firstDayOfMonth(containing day: Int) -> Int {
        day - civil(day).day + 1
    }

    /// The first day of the month after the one `day` falls in.
    public static func firstDayOfNextMonth(after day: Int) -> Int {
        let date = civil(day)
        return date.month == 12 ? days(year: date.year + 1, month: 1, day: 1) : days(year: date.year, month: date.month + 1, day: 1)
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

    /// The proleptic Gregorian date of day `day` (``CivilDays/date(ofDay:)``).
    static func civil(_ day: Int) -> (year: Int, month: Int, day: Int) { CivilDays.date(ofDay: day) }

    /// The day number of a proleptic Gregorian date (``CivilDays/day(year:month:day:)``).
    static func days(year: Int, month: Int, day: Int) -> Int { CivilDays.day(year: year, month: month, day: day) }
}
