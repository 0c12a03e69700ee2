import Foundation

/// The window a metered quota counts usage over.
///
/// Calendar windows follow the subscriber's time zone: a calendar month in Tokyo starts nine hours
/// before one in UTC. Weeks are ISO 8601 weeks, starting on Monday. A rolling window counts the usage
/// of the last `length` before now.
public enum QuotaWindow: Hashable, Sendable, CustomStringConvertible {
    case calendarDay
    case calendarWeek
    case calendarMonth
    case rolling(ISODuration)

    /// Parses the entitlements file's spelling: `calendarDay`, `calendarWeek`, `calendarMonth`, or
    /// `rolling` with a `length`.
    public init?(name: String, length: String?) {
        switch (name, length) {
        case ("calendarDay", nil): self = .calendarDay
        case ("calendarWeek", nil): self = .calendarWeek
        case ("calendarMonth", nil): self = .calendarMonth
        case ("rolling", let length?):
            guard let duration = ISODuration(length) else { return nil }
            self = .rolling(duration)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .calendarDay: "calendar day"
        case .calendarWeek: "calendar week"
        case .calendarMonth: "calendar month"
        case .rolling(let length): "rolling \(length)"
        }
    }

    /// The calendar period containing `instant` in `timeZone`; `nil` for rolling windows.
    public func calendarPeriod(containing instant: Date, timeZone: TimeZone) -> DateInterval? {
        let component: Calendar.Component
        var calendar: Calendar
        switch self {
        case .calendarDay:
            component = .day
            calendar = Calendar(identifier: .gregorian)
        case .calendarWeek:
            component = .weekOfYear
            calendar = Calendar(identifier: .iso8601)
        case .calendarMonth:
            component = .month
            calendar = Calendar(identifier: .gregorian)
        case .rolling:
            return nil
        }
        calendar.timeZone = timeZone
        return calendar.dateInterval(of: component, for: instant)
    }
}
