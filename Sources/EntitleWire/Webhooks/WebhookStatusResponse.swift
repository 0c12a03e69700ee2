import Foundation

/// `GET /v1/webhooks/status`: the app's deliveries by status, and the ledger events not yet derived
/// into deliveries.
public struct WebhookStatusResponse: Codable, Hashable, Sendable {
    public var endpoints: Int
    public var pending: Int
    public var delivered: Int
    public var failed: Int
    public var unpublishedEvents: Int

    public init(endpoints: Int, pending: Int, delivered: Int, failed: Int, unpublishedEvents: Int) {
        self.endpoints = endpoints
        self.pending = pending
        self.delivered = delivered
        self.failed = failed
        self.unpublishedEvents = unpublishedEvents
    }
}
