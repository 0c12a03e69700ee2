import Foundation

/// One customer in `GET /v1/subscribers`: who, since when, what they have now, and the flags the list
/// filters on, as the server resolved them when it answered.
public struct SubscriberSummary: Codable, Hashable, Sendable {
    public struct Purchase: Codable, Hashable, Sendable {
        public var originalTransactionID: String
        public var productID: String
        /// The subscription's state (`active`, `trial`, `grace_period`, `billing_retry`, `expired`, …).
        public var state: String
        /// The App Store storefront of its latest transaction (ISO 3166-1 alpha-3, as Apple gives it).
        public var storefront: String?
        public var expiresAt: Date?

        public init(originalTransactionID: String, productID: String, state: String, storefront: String?, expiresAt: Date?) {
            self.originalTransactionID = originalTransactionID
            self.productID = productID
            self.state = state
            self.storefront = storefront
            self.expiresAt = expiresAt
        }
    }

    public var appUserID: String
    /// The earliest purchase or app-managed trial start the ledger holds.
    public var firstSeenAt: Date?
    public var activeEntitlements: [String]
    public var purchases: [Purchase]
    /// In a StoreKit free trial or the app-managed trial.
    public var inTrial: Bool
    /// In Apple's billing grace period, or the app's warning days after its trial or a subscription.
    public var inGrace: Bool
    /// A purchase was refunded or revoked.
    public var refunded: Bool
    /// When Apple signed the newest data about their purchases that the server verified.
    public var lastVerifiedAt: Date?
    /// The kinds of anomaly flagged on them (docs/anomalies.md): `shared_purchase`, `trial_burst`, `usage_above_norm`.
    public var anomalies: [String] = []

    public init(
        appUserID: String, firstSeenAt: Date?, activeEntitlements: [String], purchases: [Purchase], inTrial: Bool, inGrace: Bool,
        refunded: Bool, lastVerifiedAt: Date?
    ) {
        self.appUserID = appUserID
        self.firstSeenAt = firstSeenAt
        self.activeEntitlements = activeEntitlements
        self.purchases = purchases
        self.inTrial = inTrial
        self.inGrace = inGrace
        self.refunded = refunded
        self.lastVerifiedAt = lastVerifiedAt
    }
}
