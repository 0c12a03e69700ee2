import EntitleWire
import Foundation

/// Where the subscriber stands on one metered quota (2 conversations a calendar month).
public struct Quota: Sendable, Hashable {
    public var feature: String
    /// The window it counts in, as the catalog declares it (`calendar_month`).
    public var window: String
    /// The most allowed in a window.
    public var limit: Limit
    public var used: Int
    /// What is left in this window; `nil` when unlimited.
    public var remaining: Int?
    /// When the window ends and the count starts again.
    public var resetsAt: Date?

    init(_ wire: QuotaInfo) {
        feature = wire.feature
        window = wire.window
        limit = Limit(wire.limit)
        used = wire.used
        remaining = wire.remaining
        resetsAt = wire.resetsAt
    }
}
