import Foundation

/// The in-app purchase event for which the App Store sends a version 2 notification.
///
/// [NotificationTypeV2](https://developer.apple.com/documentation/appstoreservernotifications/notificationtype)
public struct NotificationTypeV2: AppStoreEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let consumptionRequest = NotificationTypeV2(rawValue: "CONSUMPTION_REQUEST")
    public static let didChangeRenewalPref = NotificationTypeV2(rawValue: "DID_CHANGE_RENEWAL_PREF")
    public static let didChangeRenewalStatus = NotificationTypeV2(rawValue: "DID_CHANGE_RENEWAL_STATUS")
    public static let didFailToRenew = NotificationTypeV2(rawValue: "DID_FAIL_TO_RENEW")
    public static let didRenew = NotificationTypeV2(rawValue: "DID_RENEW")
    public static let expired = NotificationTypeV2(rawValue: "EXPIRED")
    public static let externalPurchaseToken = NotificationTypeV2(rawValue: "EXTERNAL_PURCHASE_TOKEN")
    public static let gracePeriodExpired = NotificationTypeV2(rawValue: "GRACE_PERIOD_EXPIRED")
    public static let metadataUpdate = NotificationTypeV2(rawValue: "METADATA_UPDATE")
    public static let migration = NotificationTypeV2(rawValue: "MIGRATION")
    public static let offerRedeemed = NotificationTypeV2(rawValue: "OFFER_REDEEMED")
    public static let oneTimeCharge = NotificationTypeV2(rawValue: "ONE_TIME_CHARGE")
    public static let priceChange = NotificationTypeV2(rawValue: "PRICE_CHANGE")
    public static let priceIncrease = NotificationTypeV2(rawValue: "PRICE_INCREASE")
    public static let refund = NotificationTypeV2(rawValue: "REFUND")
    public static let refundDeclined = NotificationTypeV2(rawValue: "REFUND_DECLINED")
    public static let refundReversed = NotificationTypeV2(rawValue: "REFUND_REVERSED")
    public static let renewalExtended = NotificationTypeV2(rawValue: "RENEWAL_EXTENDED")
    public static let renewalExtension = NotificationTypeV2(rawValue: "RENEWAL_EXTENSION")
    public static let rescindConsent = NotificationTypeV2(rawValue: "RESCIND_CONSENT")
    public static let revoke = NotificationTypeV2(rawValue: "REVOKE")
    public static let subscribed = NotificationTypeV2(rawValue: "SUBSCRIBED")
    public static let test = NotificationTypeV2(rawValue: "TEST")

    public static let documented: [(value: NotificationTypeV2, name: String)] = [
        (.consumptionRequest, "CONSUMPTION_REQUEST"),
        (.didChangeRenewalPref, "DID_CHANGE_RENEWAL_PREF"),
        (.didChangeRenewalStatus, "DID_CHANGE_RENEWAL_STATUS"),
        (.didFailToRenew, "DID_FAIL_TO_RENEW"),
        (.didRenew, "DID_RENEW"),
        (.expired, "EXPIRED"),
        (.externalPurchaseToken, "EXTERNAL_PURCHASE_TOKEN"),
        (.gracePeriodExpired, "GRACE_PERIOD_EXPIRED"),
        (.metadataUpdate, "METADATA_UPDATE"),
        (.migration, "MIGRATION"),
        (.offerRedeemed, "OFFER_REDEEMED"),
        (.oneTimeCharge, "ONE_TIME_CHARGE"),
        (.priceChange, "PRICE_CHANGE"),
        (.priceIncrease, "PRICE_INCREASE"),
        (.refund, "REFUND"),
        (.refundDeclined, "REFUND_DECLINED"),
        (.refundReversed, "REFUND_REVERSED"),
        (.renewalExtended, "RENEWAL_EXTENDED"),
        (.renewalExtension, "RENEWAL_EXTENSION"),
        (.rescindConsent, "RESCIND_CONSENT"),
        (.revoke, "REVOKE"),
        (.subscribed, "SUBSCRIBED"),
        (.test, "TEST"),
    ]
}
