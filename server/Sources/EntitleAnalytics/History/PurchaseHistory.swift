import AppStoreModels
import EntitleCore
import Foundation

/// Everything analytics needs about one purchase chain: every transaction Apple signed for it (the
/// latest signed version of each), refund reversals, grace periods and billing recoveries.
///
/// Unlike a subscriber's projection, which keeps only what defines the current state, the history
/// keeps every period, because revenue, renewals and churn are about the past. Recording is
/// commutative and idempotent, like the projection's.
public struct PurchaseHistory: Hashable, Sendable {
    public let originalTransactionID: OriginalTransactionID
    /// The latest signed version of every transaction, by transaction id.
    public private(set) var transactions: [String: JWSTransactionDecodedPayload] = [:]
    /// Refund reversals by transaction id, with the instant Apple signed each.
    public private(set) var refundReversals: [String: Date] = [:]
    /// Ends of billing grace periods Apple reported for the chain.
    public private(set) var graceEnds: Set<Date> = []
    /// Transactions Apple reported as billing recoveries (DID_RENEW with BILLING_RECOVERY).
    public private(set) var recoveries: Set<String> = []
    /// Ends of periods whose renewal failed to bill (DID_FAIL_TO_RENEW, the failed period's transaction).
    public private(set) var failedPeriodEnds: Set<Date> = []

    public init(originalTransactionID: OriginalTransactionID) {
        self.originalTransactionID = originalTransactionID
    }

    public mutating func record(_ transaction: JWSTransactionDecodedPayload) {
        guard let id = transaction.transactionId else { return }
        if let existing = transactions[id], !SubscriptionFacts.isNewer(transaction, than: existing) { return }
        transactions[id] = transaction
    }

    public mutating func record(_ info: JWSRenewalInfoDecodedPayload) {
        if let graceEnd = info.gracePeriodExpiresDate { graceEnds.insert(graceEnd) }
    }

    public mutating func recordRefundReversal(transactionID: String, signedDate: Date) {
        refundReversals[transactionID] = max(refundReversals[transactionID] ?? signedDate, signedDate)
    }

    public mutating func recordRecovery(transactionID: String) {
        recoveries.insert(transactionID)
    }

    public mutating func recordFailedRenewal(periodEnd: Date) {
        failedPeriodEnds.insert(periodEnd)
    }

    /// Folds another history of the same chain into this one.
    public mutating func merge(_ other: PurchaseHistory) {
        other.transactions.values.forEach { record($0) }
        for (id, date) in other.refundReversals { recordRefundReversal(transactionID: id, signedDate: date) }
        graceEnds.formUnion(other.graceEnds)
        recoveries.formUnion(other.recoveries)
        failedPeriodEnds.formUnion(other.failedPeriodEnds)
    }

    /// The transactions by purchase date (then id).
    public var chronological: [JWSTransactionDecodedPayload] {
        // Positions are sorted rather than the transactions, each of which moving would copy.
        let values = Array(transactions.values)
        let order = values.indices.sorted { l, r in
            let (left, right) = (values[l].purchaseDate ?? .distantPast, values[r].purchaseDate ?? .distantPast)
            return left != right ? left < right : (values[l].transactionId ?? "") < (values[r].transactionId ?? "")
        }
        return order.map { values[$0] }
    }

    /// The instant `transaction`'s revocation takes effect, when it stands (no refund reversal signed
    /// after it).
    public func revocation(of transaction: JWSTransactionDecodedPayload) -> Date? {
        guard let revoked = transaction.revocationDate else { return nil }
        if let id = transaction.transactionId, let reversed = refundReversals[id], reversed >= (transaction.signedDate ?? revoked) {
            return nil
        }
        return revoked
    }
}
