import Foundation

/// `POST /v1/reconciliation`: one reconciliation pass of the app now.
public struct ReconciliationRequest: Codable, Hashable, Sendable {
    /// Read Notification History from here (at most 180 days back) instead of where the last pass ended.
    public var since: Date?

    public init(since: Date? = nil) {
        self.since = since
    }
}
