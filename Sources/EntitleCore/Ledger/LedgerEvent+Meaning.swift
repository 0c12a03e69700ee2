import AppStoreModels
import Foundation

/// What a purchase transfer does to one subscriber's purchases.
public enum PurchaseTransferEffect: Sendable {
    /// The purchase left this subscriber.
    case removed(originalTransactionID: OriginalTransactionID)
    /// The purchase arrived, with the facts it carried from its previous owner.
    case received(originalTransactionID: OriginalTransactionID, facts: SubscriptionFacts)
}

extension LedgerEvent {
    /// The reversal a `REFUND_REVERSED` notification records: which transaction of which purchase,
    /// signed when. Every fold reads reversals through this one definition.
    public var refundReversal: (originalTransactionID: OriginalTransactionID, transactionID: String, signedDate: Date)? {
        guard case .notification(.refundReversed?, _, let transaction?, _) = payload, let id = transaction.transactionId,
            let signedDate
        else { return nil }
        return (OriginalTransactionID(transaction.originalTransactionId ?? id), id, signedDate)
    }

    /// The `appAccountToken` the app set when it purchased, as Apple signed it (transaction, else
    /// renewal info): what links a purchase no app submitted to its subscriber.
    public var appAccountToken: UUID? {
        switch payload {
        case .notification(_, _, let transaction, let renewalInfo): transaction?.appAccountToken ?? renewalInfo?.appAccountToken
        case .transaction(let transaction): transaction.appAccountToken
        case .renewalInfo(let info): info.appAccountToken
        default: nil
        }
    }

    /// What this event does to `appUserID`'s purchases when it is a purchase transfer.
    public func transferEffect(for appUserID: AppUserID) -> PurchaseTransferEffect? {
        guard case .purchaseTransferred(let original, let from, let to, let facts) = payload else { return nil }
        if to == appUserID, let facts { return .received(originalTransactionID: original, facts: facts) }
        if from == appUserID && to != appUserID { return .removed(originalTransactionID: original) }
        return nil
    }
}
