import Foundation

/// A delivery of one event to one endpoint, with its attempts when asked for one delivery.
public struct WebhookDeliveryInfo: Codable, Hashable, Sendable {
    public var id: Int64
    public var endpointID: String
    public var eventID: String
    public var eventType: WebhookEventTypeValue
    public var appUserID: String
    public var occurredAt: Date
    /// `pending`, `delivered`, or `failed` (every attempt failed; replayable).
    public var status: WebhookDeliveryStatus
    public var attempts: Int
    public var nextAttemptAt: Date?
    public var lastStatus: Int?
    public var lastError: String?
    public var deliveredAt: Date?
    public var createdAt: Date
    public var attemptLog: [WebhookAttemptInfo]?

    public init(
        id: Int64, endpointID: String, eventID: String, eventType: WebhookEventTypeValue, appUserID: String, occurredAt: Date, status: WebhookDeliveryStatus, attempts: Int,
        nextAttemptAt: Date?, lastStatus: Int?, lastError: String?, deliveredAt: Date?, createdAt: Date, attemptLog: [WebhookAttemptInfo]? = nil
    ) {
        self.id = id
        self.endpointID = endpointID
        self.eventID = eventID
        self.eventType = eventType
        self.appUserID = appUserID
        self.occurredAt = occurredAt
        self.status = status
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastStatus = lastStatus
        self.lastError = lastError
        self.deliveredAt = deliveredAt
        self.createdAt = createdAt
        self.attemptLog = attemptLog
    }
}

/// One attempt: when, the HTTP status if any, how long it took, why it failed.
public struct WebhookAttemptInfo: Codable, Hashable, Sendable {
    public var attempt: Int
    public var at: Date
    public var status: Int?
    public var latencyMilliseconds: Int
    public var error: String?

    public init(attempt: Int, at: Date, status: Int?, latencyMilliseconds: Int, error: String?) {
        self.attempt = attempt
        self.at = at
        self.status = status
        self.latencyMilliseconds = latencyMilliseconds
        self.error = error
    }
}
