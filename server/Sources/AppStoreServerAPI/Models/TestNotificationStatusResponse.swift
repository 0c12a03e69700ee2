import Foundation

/// Get Test Notification Status: the test notification and each attempt to send it.
public struct TestNotificationStatusResponse: Codable, Hashable, Sendable {
    /// One attempt: when (Unix milliseconds) and how it went (`SUCCESS`, `TIMED_OUT`, `NO_RESPONSE`, …).
    public struct SendAttempt: Codable, Hashable, Sendable {
        public var attemptDate: Int64?
        public var sendAttemptResult: String?
    }

    public var signedPayload: String?
    public var sendAttempts: [SendAttempt]?
}
