import Foundation

/// Additional information that identifies a version 2 notification's event.
///
/// [Subtype](https://developer.apple.com/documentation/appstoreservernotifications/subtype)
public struct Subtype: AppStoreEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let accepted = Subtype(rawValue: "ACCEPTED")
    public static let activeTokenReminder = Subtype(rawValue: "ACTIVE_TOKEN_REMINDER")
    public static let autoRenewDisabled = Subtype(rawValue: "AUTO_RENEW_DISABLED")
    public static let autoRenewEnabled = Subtype(rawValue: "AUTO_RENEW_ENABLED")
    public static let billingRecovery = Subtype(rawValue: "BILLING_RECOVERY")
    public static let billingRetry = Subtype(rawValue: "BILLING_RETRY")
    /// EXTERNAL_PURCHASE_TOKEN: a new token was created (the customer began an external purchase).
    public static let created = Subtype(rawValue: "CREATED")
    public static let downgrade = Subtype(rawValue: "DOWNGRADE")
    public static let failure = Subtype(rawValue: "FAILURE")
    public static let gracePeriod = Subtype(rawValue: "GRACE_PERIOD")
    public static let initialBuy = Subtype(rawValue: "INITIAL_BUY")
    public static let pending = Subtype(rawValue: "PENDING")
    public static let priceIncrease = Subtype(rawValue: "PRICE_INCREASE")
    public static let productNotForSale = Subtype(rawValue: "PRODUCT_NOT_FOR_SALE")
    public static let resubscribe = Subtype(rawValue: "RESUBSCRIBE")
    public static let summary = Subtype(rawValue: "SUMMARY")
    public static let unreported = Subtype(rawValue: "UNREPORTED")
    public static let upgrade = Subtype(rawValue: "UPGRADE")
    public static let voluntary = Subtype(rawValue: "VOLUNTARY")

    public static let documented: [(value: Subtype, name: String)] = [
        (.accepted, "ACCEPTED"),
        (.activeTokenReminder, "ACTIVE_TOKEN_REMINDER"),
        (.autoRenewDisabled, "AUTO_RENEW_DISABLED"),
        (.autoRenewEnabled, "AUTO_RENEW_ENABLED"),
        (.billingRecovery, "BILLING_RECOVERY"),
        (.billingRetry, "BILLING_RETRY"),
        (.created, "CREATED"),
        (.downgrade, "DOWNGRADE"),
        (.failure, "FAILURE"),
        (.gracePeriod, "GRACE_PERIOD"),
        (.initialBuy, "INITIAL_BUY"),
        (.pending, "PENDING"),
        (.priceIncrease, "PRICE_INCREASE"),
        (.productNotForSale, "PRODUCT_NOT_FOR_SALE"),
        (.resubscribe, "RESUBSCRIBE"),
        (.summary, "SUMMARY"),
        (.unreported, "UNREPORTED"),
        (.upgrade, "UPGRADE"),
        (.voluntary, "VOLUNTARY"),
    ]
}
