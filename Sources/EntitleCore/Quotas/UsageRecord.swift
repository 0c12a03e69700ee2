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

extension UsageRecord {
    /// The longest idempotency key of a use, in bytes of UTF-8.
    public static let maximumKeyLength = 200

    /// What is wrong with a use an app asks to record, or `nil`: an amount from 1 to
    /// ``AccessGate/maximumUsage`` and an idempotency key of 1 to 200 bytes. The server and EntitleKit
    /// check with this.
    public static func problem(amount: Int, idempotencyKey: String) -> String? {
        guard amount > 0, amount <= AccessGate.maximumUsage, !idempotencyKey.isEmpty, idempotencyKey.utf8.count <= maximumKeyLength else {
            return "amount must be 1 to \(AccessGate.maximumUsage) and idempotencyKey 1 to \(maximumKeyLength) bytes"
        }
        return nil
    }
}
