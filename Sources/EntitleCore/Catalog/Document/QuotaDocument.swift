import Foundation

/// A declared metered quota: the window its usage is counted over.
///
/// `window` is `calendarDay`, `calendarWeek`, `calendarMonth` (in the subscriber's time zone) or
/// `rolling`, which takes `length` (an ISO 8601 duration such as `P30D`).
public struct QuotaDocument: Decodable, Sendable, Hashable {
    public var description: String?
    public var window: String
    public var length: String?
}
