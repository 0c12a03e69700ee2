import Foundation

/// A webhook endpoint as the admin API shows it: never its secrets, only their last characters.
public struct WebhookEndpointInfo: Codable, Hashable, Sendable {
    public var id: String
    public var url: String
    /// The event types it receives; empty: every type.
    public var eventTypes: [String]
    public var description: String?
    public var createdAt: Date
    public var removedAt: Date?
    /// The active secrets' last four characters, newest first (two during a rotation).
    public var secretHints: [String]
    /// Failed attempts in a row.
    public var consecutiveFailures: Int
    /// While it keeps failing, attempts rest until then.
    public var pausedUntil: Date?

    public init(
        id: String, url: String, eventTypes: [String], description: String?, createdAt: Date, removedAt: Date?, secretHints: [String],
        consecutiveFailures: Int, pausedUntil: Date?
    ) {
        self.id = id
        self.url = url
        self.eventTypes = eventTypes
        self.description = description
        self.createdAt = createdAt
        self.removedAt = removedAt
        self.secretHints = secretHints
        self.consecutiveFailures = consecutiveFailures
        self.pausedUntil = pausedUntil
    }
}
