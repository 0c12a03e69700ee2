import Foundation

/// What an event is about, by type: the purchase chain and product for purchase and subscription
/// events, the previous product of a product change, the feature of an exhausted quota, and the
/// entitlements before and after an `entitlement_changed`.
public struct WebhookEventData: Codable, Hashable, Sendable {
    public var originalTransactionID: String?
    public var productID: String?
    public var previousProductID: String?
    /// For `quota_exhausted`: the metered feature; for `item_paused` and `item_resumed`: the item's limit.
    public var feature: String?
    /// For `item_paused` and `item_resumed`: the item's ID.
    public var itemID: String?
    /// For `renewal_reminder`: when the subscription renews.
    public var renewsAt: Date?
    /// For `expiry_warning`, `trial_ending_soon` and `app_trial_ending_soon`: when the subscription or
    /// trial ends; for `app_trial_grace_reminder` and `subscription_grace_reminder`: when the app locks out.
    public var endsAt: Date?
    /// For `trial_ending_soon`: whether the trial converts to a paid period.
    public var willRenew: Bool?
    /// For reminders: whole days from the reminder to `renewsAt` or `endsAt` ("3 days left").
    public var daysLeft: Int?
    /// For `anomaly_flagged`: what was flagged.
    public var anomaly: AnomalyInfo?
    public var entitlementsBefore: [EntitlementInfo]?
    public var entitlementsAfter: [EntitlementInfo]?

    public init(
        originalTransactionID: String? = nil, productID: String? = nil, previousProductID: String? = nil, feature: String? = nil,
        renewsAt: Date? = nil, itemID: String? = nil, entitlementsBefore: [EntitlementInfo]? = nil, entitlementsAfter: [EntitlementInfo]? = nil
    ) {
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.previousProductID = previousProductID
        self.feature = feature
        self.renewsAt = renewsAt
        self.itemID = itemID
        self.entitlementsBefore = entitlementsBefore
        self.entitlementsAfter = entitlementsAfter
    }
}
