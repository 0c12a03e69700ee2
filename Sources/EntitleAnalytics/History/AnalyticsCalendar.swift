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
        name(ofDay: day, withDay: false)
    }

    /// `YYYY-MM-DD` of day `day`.
    public static func isoDate(ofDay day: Int) -> String {
        name(ofDay: day, withDay: true)
    }

    /// `YYYY-MM`, then `-DD` when `withDay`.
    private static func name(ofDay day: Int, withDay: Bool) -> String {
        let date = civil(day)
        var text = ""
        text.reserveCapacity(10)
        append(date.year, digits: 4, to: &text)
        text += "-"
        append(date.month, digits: 2, to: &text)
        if withDay {
            text += "-"
            append(date.day, digits: 2, to: &text)
        }
        return text
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

    /// The proleptic Gregorian date of day `day` (Howard Hinnant's `civil_from_days`: whole eras of
    /// 400 years, then the year within the era counted from March, so February's length comes last).
    static func civil(_ day: Int) -> (year: Int, month: Int, day: Int) {
        let z = day + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let dayOfMonth = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfMonth)
    }

    /// The day number of a proleptic Gregorian date (`days_from_civil`, the inverse of ``civil(_:)``).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `value` in decimal, zero-padded to `digits` (a negative year keeps its sign before the digits).
    private static func append(_ value: Int, digits: Int, to text: inout String) {
        if value < 0 { text += "-" }
        let decimal = String(value.magnitude)
        if decimal.utf8.count < digits { text += String(repeating: "0", count: digits - decimal.utf8.count) }
        text += decimal
    }
}
