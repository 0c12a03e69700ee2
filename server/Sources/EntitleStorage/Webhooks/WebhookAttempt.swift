import Foundation

/// One try at sending a delivery: when, what came back, how long it took.
public struct WebhookAttempt: Hashable, Sendable {
    public var deliveryID: Int64
    /// 1 for the first attempt.
    public var attempt: Int
    public var at: Date
    /// The HTTP status, when the endpoint answered.
    public var status: Int?
    public var latencyMilliseconds: Int
    /// Why it failed, when it did (a timeout, a refused connection, a non-2xx status).
    public var error: String?

    public init(deliveryID: Int64, attempt: Int, at: Date, status: Int?, latencyMilliseconds: Int, error: String?) {
        self.deliveryID = deliveryID
        self.attempt = attempt
        self.at = at
        self.status = status
        self.latencyMilliseconds = latencyMilliseconds
        self.error = error
    }

    public var succeeded: Bool { status.map { (200..<300).contains($0) } ?? false }
}
