import Foundation

/// The body of every webhook Entitle sends: what happened, to whom, and the subscriber as
/// `GET /v1/subscribers/{appUserID}` showed it right after. Receivers de-duplicate by ``id``.
public struct WebhookEvent: Codable, Hashable, Sendable {
    /// The same on every attempt and every endpoint.
    public var id: String
    /// A stable type name (docs/webhooks.md).
    public var type: WebhookEventTypeValue
    /// The app's bundle ID.
    public var app: String
    public var occurredAt: Date
    public var appUserID: String
    public var data: WebhookEventData
    /// The subscriber after the change; absent only in a test event.
    public var subscriber: SubscriberResponse?

    public init(
        id: String, type: WebhookEventTypeValue, app: String, occurredAt: Date, appUserID: String, data: WebhookEventData, subscriber: SubscriberResponse?
    ) {
        self.id = id
        self.type = type
        self.app = app
        self.occurredAt = occurredAt
        self.appUserID = appUserID
        self.data = data
        self.subscriber = subscriber
    }
}
