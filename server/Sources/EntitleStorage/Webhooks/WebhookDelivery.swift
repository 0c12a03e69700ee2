import EntitleCore
import Foundation

/// One event on its way to one endpoint.
public struct WebhookDelivery: Hashable, Sendable {
    public enum Status: String, Hashable, Sendable, CaseIterable {
        /// Waiting for its next attempt.
        case pending
        case delivered
        /// Every attempt failed; kept for replay.
        case failed
    }

    /// The event types whose payload names a customer no longer kept (a deleted customer's ID): once
    /// delivered, the store replaces it with ``redactedPayload``.
    public static let redactedOnceDelivered: Set<String> = ["subscriber_deleted"]
    /// What such a delivery keeps of its payload.
    public static let redactedPayload = #"{"redacted":"delivered; the deleted customer's ID is not kept"}"#

    /// Assigned by the store, in the order deliveries were written.
    public var id: Int64
    public var endpointID: String
    /// The event's ID, the same on every endpoint and every attempt: what receivers de-duplicate by.
    public var eventID: String
    public var eventType: String
    public var appUserID: AppUserID
    public var occurredAt: Date
    /// The JSON body sent.
    public var payload: String
    public var status: Status
    public var attempts: Int
    public var nextAttemptAt: Date
    /// The HTTP status of the last attempt, when it got an answer.
    public var lastStatus: Int?
    public var lastError: String?
    public var deliveredAt: Date?
    public var createdAt: Date
    /// The trace (W3C `traceparent`) of the request that caused the change, while tracing is on: the
    /// delivery's span continues it.
    public var traceParent: String?

    public init(
        id: Int64 = 0, endpointID: String, eventID: String, eventType: String, appUserID: AppUserID, occurredAt: Date, payload: String,
        status: Status = .pending, attempts: Int = 0, nextAttemptAt: Date, lastStatus: Int? = nil, lastError: String? = nil,
        deliveredAt: Date? = nil, createdAt: Date, traceParent: String? = nil
    ) {
        self.traceParent = traceParent
        self.id = id
        self.endpointID = endpointID
        self.eventID = eventID
        self.eventType = eventType
        self.appUserID = appUserID
        self.occurredAt = occurredAt
        self.payload = payload
        self.status = status
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastStatus = lastStatus
        self.lastError = lastError
        self.deliveredAt = deliveredAt
        self.createdAt = createdAt
    }
}
