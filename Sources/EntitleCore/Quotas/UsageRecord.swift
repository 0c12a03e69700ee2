import Foundation

/// One recorded use of a metered feature (a conversation started, say).
public struct UsageRecord: Hashable, Sendable, Codable {
    public var feature: String
    public var amount: Int
    public var at: Date
    /// The client's idempotency key: the same key twice is one use.
    public var idempotencyKey: String?

    public init(feature: String, amount: Int = 1, at: Date, idempotencyKey: String? = nil) {
        self.feature = feature
        self.amount = amount
        self.at = at
        self.idempotencyKey = idempotencyKey
    }
}
