import AppStoreModels
import EntitleCore
import Foundation

/// One purchase chain in the local App Store (one `originalTransactionId`), as the store knows it.
public struct SimulatedSubscription: Hashable, Sendable {
    /// Where the chain is in Apple's lifecycle.
    public enum Phase: String, Hashable, Sendable {
        case active
        case gracePeriod = "grace_period"
        case billingRetry = "billing_retry"
        case expired
        case revoked
    }

    public let originalTransactionID: String
    public let kind: ProductKind
    public let appAccountToken: UUID?
    public let ownership: InAppOwnershipType
    /// For a family-shared chain, the purchaser's chain.
    public let familyOwner: String?
    public let originalPurchaseDate: Date
    public internal(set) var productID: String
    public internal(set) var autoRenewProductID: String
    public internal(set) var autoRenew: Bool
    public internal(set) var familyMembers: [String] = []
    public internal(set) var purchaseDate: Date
    public internal(set) var expiresDate: Date?
    public internal(set) var transactionID: String
    public internal(set) var webOrderLineItemID: String?
    public internal(set) var price: Int64
    public internal(set) var offerType: OfferType?
    public internal(set) var offerDiscountType: OfferDiscountType?
    public internal(set) var offerIdentifier: String?
    /// Introductory periods still to be billed at the offer's price (pay as you go).
    public internal(set) var introductoryPeriodsLeft = 0
    /// An offer redeemed for the next renewal.
    public internal(set) var pendingOffer: (type: OfferType, identifier: String)?
    public internal(set) var phase: Phase = .active
    public internal(set) var gracePeriodExpiresDate: Date?
    public internal(set) var revocationDate: Date?
    public internal(set) var revocationReason: RevocationReason?
    /// REFUND_FULL, or REFUND_PRORATED with the share refunded (`revocationPercentage`, thousandths of a percent).
    public internal(set) var revocationType: RevocationType?
    public internal(set) var revocationPercentage: Int32?
    /// The phase before a refund, restored by its reversal.
    public internal(set) var phaseBeforeRevocation: Phase?
    public internal(set) var expirationIntent: ExpirationIntent?
    public internal(set) var priceIncreaseStatus: PriceIncreaseStatus?
    public internal(set) var renewals = 0
    /// Set while the chain is billed monthly under a 12-month commitment.
    public internal(set) var commitment: SimulatedCommitment?

    /// The customer's app transaction ID, which the store's transactions carry (as Apple's do since iOS
    /// 18.4): one per customer — by their appAccountToken, else by this chain.
    public var appTransactionID: String {
        guard let token = appAccountToken else { return "7" + originalTransactionID }
        let bytes = withUnsafeBytes(of: token.uuid) { Array($0.prefix(8)) }
        return "7" + String(bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % 1_000_000_000_000_000)
    }

    /// Whether the next period will be charged: auto-renew is on, or the commitment still has instalments.
    public var renewsNext: Bool { autoRenew || (commitment?.hasPeriodsLeft ?? false) }

    /// The subscription state Entitle should report for this chain at `now`, derived from Apple's
    /// documented semantics independently of Entitle's own lifecycle code.
    public func expectedState(at now: Date) -> String {
        switch phase {
        case .revoked: return "revoked"
        case .expired: return "expired"
        case .billingRetry: return "billing_retry"
        case .gracePeriod: return (gracePeriodExpiresDate.map { now < $0 } ?? false) ? "grace_period" : "billing_retry"
        case .active:
            guard kind == .autoRenewable || kind == .nonRenewing else { return "active" }
            if let expiresDate, now >= expiresDate { return "expired" }
            if offerDiscountType == .freeTrial { return "trial" }
            return autoRenew || kind == .nonRenewing ? "active" : "active_not_renewing"
        }
    }

    /// Whether Entitle should grant the product's entitlements at `now`.
    public func expectedEntitled(at now: Date) -> Bool {
        ["active", "active_not_renewing", "trial", "grace_period"].contains(expectedState(at: now))
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.originalTransactionID == rhs.originalTransactionID && lhs.transactionID == rhs.transactionID && lhs.phase == rhs.phase
            && lhs.autoRenew == rhs.autoRenew && lhs.autoRenewProductID == rhs.autoRenewProductID && lhs.expiresDate == rhs.expiresDate
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(originalTransactionID)
        hasher.combine(transactionID)
    }
}
