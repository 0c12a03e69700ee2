import EntitleCore
import Foundation

/// One event of a subscriber's timeline and the entitlement states after it.
public struct StateChange: Hashable, Sendable {
    public var at: Date
    public var source: String
    public var kind: String
    public var transactionID: String?
    public var originalTransactionID: OriginalTransactionID?
    /// Entitlement id → state after the event.
    public var states: [String: String]
    /// Whether the states differ from before the event.
    public var changed: Bool
}
