import AppStoreModels
import Foundation

/// Everything known about one purchase chain — one `originalTransactionId`: an auto-renewable
/// subscription with its renewals and plan changes, a non-renewing subscription, or a one-time purchase.
///
/// Recording is commutative and idempotent: each transaction keeps its most recently signed version
/// and the renewal info its most recently signed one (ties broken by content), so the same facts in
/// any order, duplicated or replayed, give the same value. That is what lets a ledger fold events
/// delivered out of order.
public struct SubscriptionFacts: Hashable, Sendable, Codable {
    public let originalTransactionID: OriginalTransactionID
    /// The latest signed version of each transaction that can still be current, by transaction id.
    ///
    /// Only transactions with the latest purchase date can define the chain's state (see
    /// ``currentTransaction``), so older ones are not kept: the projection stays the same size however
    /// long the subscription runs. The ledger keeps every transaction. The rule is applied on every
    /// record, so the result is the same in any order.
    public private(set) var transactions: [String: JWSTransactionDecodedPayload] = [:]
    /// The most recently signed renewal info.
    public private(set) var renewalInfo: JWSRenewalInfoDecodedPayload?
    /// Refund reversals (REFUND_REVERSED) by transaction id, with the instant Apple signed each.
    public private(set) var refundReversals: [String: Date] = [:]
    /// When the chain's first introductory offer began (the earliest seen), kept when its transaction
    /// no longer is: Apple gives one introductory offer per subscription group, ever (``OfferEligibility``).
    public private(set) var introductoryOfferAt: Date?
    /// Other subscribers who submitted this purchase as theirs (a restore onto another account, allowed
    /// or refused by the restore policy), by app user ID, each with when they first did; `nil` when
    /// none. Carried with the chain when it moves, so a purchase restored onto account after account
    /// shows every claim (``AnomalyDetector``).
    public private(set) var claims: [String: Date]?
    public init(originalTransactionID: OriginalTransactionID) {
        self.originalTransactionID = originalTransactionID
    }

    /// Records a signed transaction. Transactions of another chain or without an id are ignored.
    public mutating func record(_ transaction: JWSTransactionDecodedPayload) {
        guard let id = transaction.transactionId,
            (transaction.originalTransactionId ?? id) == originalTransactionID.rawValue
        else { return }
        if transaction.offerType == .introductoryOffer, let began = transaction.purchaseDate {
            introductoryOfferAt = min(introductoryOfferAt ?? began, began)
        }
        if let existing = transactions[id] {
            let (purchased, before) = (transaction.purchaseDate ?? .distantPast, existing.purchaseDate ?? .distantPast)
            // Apple never moves a transaction's purchase date. Data that does keeps the later one
            // whatever was signed last, so the chain's latest purchase only grows and what was dropped
            // as older can't be needed again: the facts are the same in any order of arrival.
            if purchased != before {
                guard purchased > before else { return }
            } else if !Self.isNewer(transaction, than: existing) {
                return
            }
        }
        let latest = transactions.values.compactMap(\.purchaseDate).max() ?? .distantPast
        let purchased = transaction.purchaseDate ?? .distantPast
        guard purchased >= latest else { return }
        transactions[id] = transaction
        if purchased > latest {
            transactions = transactions.filter { ($0.value.purchaseDate ?? .distantPast) >= purchased }
        }
    }

    /// Records signed renewal info. Renewal info of another chain is ignored.
    public mutating func record(_ info: JWSRenewalInfoDecodedPayload) {
        guard info.originalTransactionId == nil || info.originalTransactionId == originalTransactionID.rawValue else { return }
        if let existing = renewalInfo, !Self.isNewer(info, than: existing) { return }
        renewalInfo = info
    }

    /// Records that Apple reversed the refund of `transactionID` (a REFUND_REVERSED notification signed
    /// at `signedDate`). A revocation signed before it no longer counts.
    public mutating func recordRefundReversal(transactionID: String, signedDate: Date) {
        refundReversals[transactionID] = max(refundReversals[transactionID] ?? signedDate, signedDate)
    }

    /// Records that `appUserID` submitted this purchase as theirs at `at` (the earliest claim of each stands).
    public mutating func recordClaim(by appUserID: AppUserID, at: Date) {
        var claims = self.claims ?? [:]
        claims[appUserID.rawValue] = min(claims[appUserID.rawValue] ?? at, at)
        self.claims = claims
    }

    /// Puts `appUserID`'s claim under `other` (a customer's erasure), the earliest of both standing.
    public mutating func renameClaimant(_ appUserID: AppUserID, to other: AppUserID) {
        guard var claims, let at = claims.removeValue(forKey: appUserID.rawValue) else { return }
        claims[other.rawValue] = min(claims[other.rawValue] ?? at, at)
        self.claims = claims
    }

    /// Folds another set of facts about the same chain into this one.
    public mutating func merge(_ other: SubscriptionFacts) {
        precondition(other.originalTransactionID == originalTransactionID, "facts of different purchase chains")
        other.transactions.values.forEach { record($0) }
        if let info = other.renewalInfo { record(info) }
        for (id, date) in other.refundReversals { recordRefundReversal(transactionID: id, signedDate: date) }
        if let began = other.introductoryOfferAt { introductoryOfferAt = min(introductoryOfferAt ?? began, began) }
        for (claimant, at) in other.claims ?? [:] { recordClaim(by: AppUserID(claimant), at: at) }
    }

    /// Whether the revocation of `transaction` stands: it has a revocation date and no refund reversal
    /// was signed after it.
    public func isRevoked(_ transaction: JWSTransactionDecodedPayload, at now: Date) -> Bool {
        guard let revocationDate = transaction.revocationDate, revocationDate <= now else { return false }
        guard let id = transaction.transactionId, let reversedAt = refundReversals[id] else { return true }
        return reversedAt < (transaction.signedDate ?? revocationDate)
    }

    /// When Apple signed the newest data kept about the chain (a transaction or the renewal info).
    public var lastSignedAt: Date? {
        (transactions.values.compactMap(\.signedDate) + [renewalInfo?.signedDate].compactMap { $0 }).max()
    }

    /// The transaction that defines the chain's current state: the latest purchase; among equal
    /// purchase dates the one not upgraded away, then the largest id.
    public var currentTransaction: JWSTransactionDecodedPayload? {
        transactions.values.max { lhs, rhs in
            let l = (lhs.purchaseDate ?? .distantPast, (lhs.isUpgraded ?? false) ? 0 : 1, lhs.transactionId ?? "")
            let r = (rhs.purchaseDate ?? .distantPast, (rhs.isUpgraded ?? false) ? 0 : 1, rhs.transactionId ?? "")
            return l < r
        }
    }

    /// Newer means signed later; equal signing instants are ordered by content so every replica picks
    /// the same version. The same version seen twice (a notification and the transaction it carries)
    /// is never newer, and is recognised without encoding either.
    public static func isNewer<T: Encodable & Equatable>(_ candidate: T, than existing: T) -> Bool where T: SignedPayload {
        let lhs = candidate.signedDate ?? .distantPast
        let rhs = existing.signedDate ?? .distantPast
        if lhs != rhs { return lhs > rhs }
        if candidate == existing { return false }
        let encoder = AppStoreJSON.encoder()
        let a = (try? encoder.encode(candidate)) ?? Data()
        let b = (try? encoder.encode(existing)) ?? Data()
        return a != b && !a.lexicographicallyPrecedes(b)
    }
}
