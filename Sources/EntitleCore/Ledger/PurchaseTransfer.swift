import Foundation

/// A purchase moving to another subscriber (a restore onto another account): the two ledger events
/// that record it, one on each timeline. Built here so that every store records a transfer alike.
public struct PurchaseTransfer: Sendable {
    public let originalTransactionID: OriginalTransactionID
    public let from: AppUserID
    public let to: AppUserID
    public let at: Date
    /// Identifies the move (and the incoming event); both events derive their idempotency keys from it.
    public let id: UUID
    /// The outgoing event's id.
    public let outgoingID: UUID

    public init(originalTransactionID: OriginalTransactionID, from: AppUserID, to: AppUserID, at: Date, id: UUID, outgoingID: UUID) {
        self.originalTransactionID = originalTransactionID
        self.from = from
        self.to = to
        self.at = at
        self.id = id
        self.outgoingID = outgoingID
    }

    /// The previous owner's event: the purchase leaves them.
    public var outgoing: LedgerEvent {
        LedgerEvent(
            id: outgoingID, appUserID: from, source: .restore,
            idempotencyKey: "transfer:\(id.uuidString):out", originalTransactionID: originalTransactionID, signedDate: at, receivedAt: at,
            payload: .purchaseTransferred(originalTransactionID: originalTransactionID, from: from, to: to, facts: nil))
    }

    /// The new owner's event: the purchase arrives with the facts it had (`carried`).
    public func incoming(carrying carried: SubscriptionFacts?) -> LedgerEvent {
        LedgerEvent(
            id: id, appUserID: to, source: .restore, idempotencyKey: "transfer:\(id.uuidString):in",
            originalTransactionID: originalTransactionID, signedDate: at, receivedAt: at,
            payload: .purchaseTransferred(originalTransactionID: originalTransactionID, from: from, to: to, facts: carried))
    }
}
