import Foundation

/// An attempt with what follows from it: when to try again (`nil` after a success, or after the last
/// failure: failed for good), and until when its endpoint rests after a failure.
public struct WebhookAttemptOutcome: Hashable, Sendable {
    public var attempt: WebhookAttempt
    public var endpointID: String
    public var retryAt: Date?
    public var pauseUntil: Date?

    public init(attempt: WebhookAttempt, endpointID: String, retryAt: Date?, pauseUntil: Date?) {
        self.attempt = attempt
        self.endpointID = endpointID
        self.retryAt = retryAt
        self.pauseUntil = pauseUntil
    }
}
