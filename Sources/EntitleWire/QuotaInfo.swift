import Foundation

/// Where a subscriber stands on one metered quota.
public struct QuotaInfo: Codable, Hashable, Sendable {
    public var feature: String
    public var window: String
    /// `nil` when unlimited.
    public var limit: Int?
    public var used: Int
    public var remaining: Int?
    public var resetsAt: Date?

    public init(feature: String, window: String, limit: Int?, used: Int, remaining: Int?, resetsAt: Date?) {
        self.feature = feature
        self.window = window
        self.limit = limit
        self.used = used
        self.remaining = remaining
        self.resetsAt = resetsAt
    }
}
