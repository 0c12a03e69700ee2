/// Days numbered from 1970-01-01 (day 0) and their proleptic Gregorian dates, in UTC: what analytics
/// counts in and what the API's dates are written with, computed without Foundation's calendar.
public enum CivilDays {
    /// `YYYY-MM-DD` of day `day`.
    public static func isoDate(ofDay day: Int) -> String {
        name(ofDay: day, withDay: true)
    }

    /// `YYYY-MM`, then `-DD` when `withDay`, of day `day`.
    public static func name(ofDay day: Int, withDay: Bool) -> String {
        let civil = Self.date(ofDay: day)
        var text = ""
        text.reserveCapacity(10)
        append(civil.year, digits: 4, to: &text)
        text += "-"
        append(civil.month, digits: 2, to: &text)
        if withDay {
            text += "-"
            append(civil.day, digits: 2, to: &text)
        }
        return text
    }

    /// The proleptic Gregorian date of day `day` (Howard Hinnant's `civil_from_days`: whole eras of
    /// 400 years, then the year within the era counted from March, so February's length comes last).
    public static func date(ofDay day: Int) -> (year: Int, month: Int, day: Int) {
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

    /// The day number of a proleptic Gregorian date (`days_from_civil`, the inverse of ``date(ofDay:)``).
    public static func day(year: Int, month: Int, day: Int) -> Int {
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
