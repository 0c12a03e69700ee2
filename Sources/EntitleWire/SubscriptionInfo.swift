import Foundation

/// One purchase chain of a subscriber: a subscription, or a one-time purchase.
public struct SubscriptionInfo: Codable, Hashable, Sendable {
    public var originalTransactionID: String
    public var productID: String
    /// `auto_renewable`, `non_renewing`, `non_consumable`.
    public var kind: PurchaseKind
    public var state: SubscriptionStateValue
    /// The App Store Server API status 1–5, when it applies.
    public var appleStatus: Int?
    public var willRenew: Bool
    public var renewsToProductID: String?
    /// What the move to `renewsToProductID` is: `downgrade`, or `crossgrade` (same level, another
    /// duration); both take effect at the next renewal.
    public var renewalChange: String?
    public var purchasedAt: Date?
    public var expiresAt: Date?
    public var gracePeriodExpiresAt: Date?
    public var periodType: String
    public var expirationReason: String?
    public var revocationCause: String?
    public var isFamilyShared: Bool
    public var environment: String?
    /// Set for a subscription billed monthly under a 12-month commitment.
    public var commitment: CommitmentInfo?
    /// `true` when another active source gives everything this renewing subscription grants (an earlier
    /// purchase, say two household members who bought at once, or a household the subscriber belongs to):
    /// the app may suggest cancelling it. Absent otherwise.
    public var redundant: Bool?
    /// The offer the next renewal redeems, when the customer redeemed one (OFFER_REDEEMED).
    public var renewalOffer: RenewalOfferInfo?
    /// The transaction of the current (latest) period: what support asks for and Apple's Server API looks up.
    public var latestTransactionID: String?
    /// Whole days left when the server answered in what the subscriber has now: the billing grace
    /// period while in it, else the trial or period until `expiresAt`; absent once ended, or with no end.
    public var daysLeft: Int?

    public init(
        originalTransactionID: String, productID: String, kind: PurchaseKind, state: SubscriptionStateValue, appleStatus: Int?, willRenew: Bool,
        renewsToProductID: String?, purchasedAt: Date?, expiresAt: Date?, gracePeriodExpiresAt: Date?, periodType: String,
        expirationReason: String?, revocationCause: String?, isFamilyShared: Bool, environment: String?, renewalChange: String? = nil,
        commitment: CommitmentInfo? = nil, redundant: Bool? = nil
    ) {
        self.redundant = redundant
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.kind = kind
        self.state = state
        self.appleStatus = appleStatus
        self.willRenew = willRenew
        self.renewsToProductID = renewsToProductID
        self.renewalChange = renewalChange
        self.purchasedAt = purchasedAt
        self.expiresAt = expiresAt
        self.gracePeriodExpiresAt = gracePeriodExpiresAt
        self.periodType = periodType
        self.expirationReason = expirationReason
        self.revocationCause = revocationCause
        self.isFamilyShared = isFamilyShared
        self.environment = environment
        self.commitment = commitment
    }
}
