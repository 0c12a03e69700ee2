import Foundation

/// An ISO 8601 duration (`P1M`, `P1Y`, `P30D`, `P2W`, `PT12H`), the notation StoreKit uses for
/// subscription and offer periods.
///
/// Calendar components stay calendar components: adding `P1M` to January 31 gives the last day of
/// February, as the App Store does, rather than a fixed number of seconds.
public struct ISODuration: Hashable, Sendable, CustomStringConvertible, Codable {
    public var years: Int
    public var months: Int
    public var weeks: Int
    public var days: Int
    public var hours: Int
    public var minutes: Int
    public var seconds: Int

    public init(years: Int = 0, months: Int = 0, weeks: Int = 0, days: Int = 0, hours: Int = 0, minutes: Int = 0, seconds: Int = 0) {
        self.years = years
        self.months = months
        self.weeks = weeks
        self.days = days
        self.hours = hours
        self.minutes = minutes
        self.seconds = seconds
    }

    /// Parses `PnYnMnWnDTnHnMnS`. Returns `nil` for anything else, including a zero duration, negative
    /// or fractional values, and an empty time part (`P1DT`).
    public init?(_ text: String) {
        var years = 0, months = 0, weeks = 0, days = 0, hours = 0, minutes = 0, seconds = 0
        var chars = Substring(text)
        guard chars.first == "P" else { return nil }
        chars = chars.dropFirst()
        var inTime = false
        var sawTimeComponent = false
        var sawAny = false
        var lastOrder = -1
        while let first = chars.first {
            if first == "T" {
                guard !inTime else { return nil }
                inTime = true
                chars = chars.dropFirst()
                continue
            }
            let digits = chars.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 6, let value = Int(digits) else { return nil }
            chars = chars.dropFirst(digits.count)
            guard let unit = chars.first else { return nil }
            chars = chars.dropFirst()
            let order: Int
            switch (inTime, unit) {
            case (false, "Y"): years = value; order = 0
            case (false, "M"): months = value; order = 1
            case (false, "W"): weeks = value; order = 2
            case (false, "D"): days = value; order = 3
            case (true, "H"): hours = value; order = 4; sawTimeComponent = true
            case (true, "M"): minutes = value; order = 5; sawTimeComponent = true
            case (true, "S"): seconds = value; order = 6; sawTimeComponent = true
            default: return nil
            }
            guard order > lastOrder else { return nil }
            lastOrder = order
            sawAny = true
        }
        guard sawAny, !inTime || sawTimeComponent else { return nil }
        self.init(years: years, months: months, weeks: weeks, days: days, hours: hours, minutes: minutes, seconds: seconds)
        guard !isZero else { return nil }
    }

    public var isZero: Bool {
        years == 0 && months == 0 && weeks == 0 && days == 0 && hours == 0 && minutes == 0 && seconds == 0
    }

    /// The canonical ISO 8601 spelling.
    public var description: String {
        var text = "P"
        if years > 0 { text += "\(years)Y" }
        if months > 0 { text += "\(months)M" }
        if weeks > 0 { text += "\(weeks)W" }
        if days > 0 { text += "\(days)D" }
        if hours > 0 || minutes > 0 || seconds > 0 {
            text += "T"
            if hours > 0 { text += "\(hours)H" }
            if minutes > 0 { text += "\(minutes)M" }
            if seconds > 0 { text += "\(seconds)S" }
        }
        return text
    }

    /// The instant this duration after `date`, in `calendar` (Gregorian UTC unless given).
    ///
    /// In Gregorian UTC (given or not) a duration without years or months is a fixed number of seconds,
    /// added without the calendar.
    public func added(to date: Date, in calendar: Calendar? = nil) -> Date {
        if years == 0, months == 0, calendar == nil || calendar == .gregorianUTC {
            let seconds = ((weeks * 7 + days) * 24 + hours) * 3_600 + minutes * 60 + self.seconds
            return date.addingTimeInterval(TimeInterval(seconds))
        }
        let calendar = calendar ?? .gregorianUTC
        var components = DateComponents()
        components.year = years
        components.month = months
        components.day = weeks * 7 + days
        components.hour = hours
        components.minute = minutes
        components.second = seconds
        return calendar.date(byAdding: components, to: date) ?? date
    }

    /// The duration expressed in months when it is a whole number of months or years (`P1Y` is 12),
    /// for normalising prices to a month. `nil` for day- or week-based periods.
    public var wholeMonths: Int? {
        guard weeks == 0, days == 0, hours == 0, minutes == 0, seconds == 0 else { return nil }
        return years * 12 + months
    }

    /// An approximate length in days (a month is 30.436875 days, a year 365.2425), for comparing and
    /// normalising periods that mix units. Never used to compute dates.
    public var approximateDays: Double {
        Double(years) * 365.2425 + Double(months) * 30.436875 + Double(weeks * 7 + days)
            + Double(hours) / 24 + Double(minutes) / 1440 + Double(seconds) / 86400
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = ISODuration(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not an ISO 8601 duration such as P1M, P1Y, P30D or P2W")
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension Calendar {
    /// The Gregorian calendar in UTC: how the App Store computes subscription periods.
    public static let gregorianUTC: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .utc
        return calendar
    }()
}
