import AppStoreModels
import Foundation

/// The evaluated state of one purchase chain at an instant: what ``SubscriptionLifecycle`` returns.
public struct SubscriptionStatus: Hashable, Sendable {
    public var originalTransactionID: OriginalTransactionID
    /// The product of the current transaction: the one whose entitlements apply now. After a
    /// downgrade this stays the higher product until the renewal.
    public var productID: ProductID
    public var kind: ProductKind
    public var state: SubscriptionState
    /// The App Store Server API `Status` (1–5) this state corresponds to; `nil` for pending and
    /// upgraded-away chains, and for one-time purchases.
    public var appleStatus: Status?
    public var willRenew: Bool
    /// The product the subscription renews to when it differs from `productID` (a pending downgrade
    /// or crossgrade).
    public var renewsToProductID: ProductID?
    /// What moving to `renewsToProductID` is in the catalog (a downgrade, or a crossgrade to another
    /// duration); set by ``EntitlementResolver``, which knows the catalog.
    public var renewalChange: ProductChange.Kind?
    public var currentTransactionID: String?
    public var purchasedAt: Date?
    public var originalPurchasedAt: Date?
    /// The end of the current period.
    public var expiresAt: Date?
    /// The end of the billing grace period, while in it.
    public var gracePeriodExpiresAt: Date?
    public var periodType: PeriodType
    public var expirationReason: ExpirationReason?
    public var revocationCause: RevocationCause?
    public var revokedAt: Date?
    public var isFamilyShared: Bool
    public var environment: Environment?
    /// The offer the next renewal redeems (an offer code, a promotional or win-back offer the customer
    /// redeemed, OFFER_REDEEMED), from the renewal info: its type and identifier.
    public var renewalOffer: (type: OfferType, offerID: String?)? {
        get { renewalOfferType.map { ($0, renewalOfferID) } }
        set { (renewalOfferType, renewalOfferID) = (newValue?.type, newValue?.offerID) }
    }
    var renewalOfferType: OfferType?
    var renewalOfferID: String?
    /// Whether another active source gives everything this renewing subscription grants (an earlier purchase,
    /// a household): the app may suggest cancelling it. Set by ``EntitlementResolver``.
    public var isRedundant = false
    /// For a subscription billed monthly under a 12-month commitment: where it stands in the commitment.
    public var commitment: Commitment?
    /// The current transaction's price in milliunits of `currency`.
    public var price: Int64?
    public var currency: String?

    public var isEntitled: Bool { state.isEntitled }

    /// Until when the current state grants access, if it does: the grace period's end in grace, the
    /// period's end otherwise; `nil` for lifetime purchases.
    public var entitledUntil: Date? {
        guard isEntitled else { return nil }
        return state == .gracePeriod ? gracePeriodExpiresAt : expiresAt
    }

    /// When the subscription as chosen ends or renews: the commitment's end for a subscription billed
    /// monthly under one (its instalments are not period ends), the period's end otherwise.
    public var termEndsAt: Date? {
        commitment?.endsAt ?? expiresAt
    }

    public init(
        originalTransactionID: OriginalTransactionID, productID: ProductID, kind: ProductKind, state: SubscriptionState,
        appleStatus: Status? = nil, willRenew: Bool = false, renewsToProductID: ProductID? = nil,
        currentTransactionID: String? = nil, purchasedAt: Date? = nil, originalPurchasedAt: Date? = nil,
        expiresAt: Date? = nil, gracePeriodExpiresAt: Date? = nil, periodType: PeriodType = .normal,
        expirationReason: ExpirationReason? = nil, revocationCause: RevocationCause? = nil, revokedAt: Date? = nil,
        isFamilyShared: Bool = false, environment: Environment? = nil, price: Int64? = nil, currency: String? = nil
    ) {
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.kind = kind
        self.state = state
        self.appleStatus = appleStatus
        self.willRenew = willRenew
        self.renewsToProductID = renewsToProductID
        self.currentTransactionID = currentTransactionID
        self.purchasedAt = purchasedAt
        self.originalPurchasedAt = originalPurchasedAt
        self.expiresAt = expiresAt
        self.gracePeriodExpiresAt = gracePeriodExpiresAt
        self.periodType = periodType
        self.expirationReason = expirationReason
        self.revocationCause = revocationCause
        self.revokedAt = revokedAt
        self.isFamilyShared = isFamilyShared
        self.environment = environment
        self.price = price
        self.currency = currency
    }
}
