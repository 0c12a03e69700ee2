import Foundation

/// The window a metered quota counts usage over.
///
/// Calendar windows follow the subscriber's time zone: a calendar month in Tokyo starts nine hours
/// before one in UTC. Weeks are ISO 8601 weeks, starting on Monday. A rolling window counts the usage
/// of the last `length` before now.
public enum QuotaWindow: Hashable, Sendable, CustomStringConvertible, Codable {
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

extension QuotaWindow {
    /// The window's name as the entitlements file writes it.
    public var name: String {
        switch self {
        case .calendarDay: "calendarDay"
        case .calendarWeek: "calendarWeek"
        case .calendarMonth: "calendarMonth"
        case .rolling: "rolling"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case name, length
    }

    /// As the entitlements file writes it: `{"name": "calendarMonth"}`, `{"name": "rolling", "length": "P7D"}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        guard let window = QuotaWindow(name: name, length: try container.decodeIfPresent(String.self, forKey: .length)) else {
            throw DecodingError.dataCorruptedError(forKey: .name, in: container, debugDescription: "\(name) is not a quota window")
        }
        self = window
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        if case .rolling(let length) = self { try container.encode(length.description, forKey: .length) }
    }
}
