import EntitleCore
import Foundation

/// A developer's URL that receives an app's webhook events.
public struct WebhookEndpoint: Hashable, Sendable {
    public var id: String
    public var app: BundleID
    public var url: String
    /// The event types it receives (their stable names); empty: every type Entitle derives. Apple's
    /// notifications forwarded as they came (``forwardedNotification``) go only to an endpoint that names them.
    public var eventTypes: [String]
    /// The signing secrets, newest first: one, or two while a rotation lets receivers catch up. Kept
    /// as given (signing needs them), returned by the admin API only when made.
    public var secrets: [String]
    public var description: String?
    public var createdAt: Date
    public var removedAt: Date?
    /// Failed attempts in a row; reset by a success.
    public var consecutiveFailures: Int
    /// While it keeps failing, attempts rest until then (a dead endpoint is not hammered).
    public var pausedUntil: Date?

    public init(
        id: String, app: BundleID, url: String, eventTypes: [String], secrets: [String], description: String? = nil, createdAt: Date,
        removedAt: Date? = nil, consecutiveFailures: Int = 0, pausedUntil: Date? = nil
    ) {
        self.id = id
        self.app = app
        self.url = url
        self.eventTypes = eventTypes
        self.secrets = secrets
        self.description = description
        self.createdAt = createdAt
        self.removedAt = removedAt
        self.consecutiveFailures = consecutiveFailures
        self.pausedUntil = pausedUntil
    }

    /// Whether the endpoint wants events of `type`.
    public func receives(_ type: String) -> Bool {
        eventTypes.contains(type) || (eventTypes.isEmpty && type != Self.forwardedNotification)
    }

    /// The type of a delivery that forwards one of Apple's notifications as Apple sent it (docs/webhooks.md).
    public static let forwardedNotification = "app_store_notification"
}
