import Foundation

/// Why a subscription expired.
///
/// [ExpirationIntent](https://developer.apple.com/documentation/appstoreserverapi/expirationintent)
public struct ExpirationIntent: AppStoreEnumeration {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let customerCancelled = ExpirationIntent(rawValue: 1)
    public static let billingError = ExpirationIntent(rawValue: 2)
    public static let customerDidNotConsentToPriceIncrease = ExpirationIntent(rawValue: 3)
    public static let productNotAvailable = ExpirationIntent(rawValue: 4)
    public static let other = ExpirationIntent(rawValue: 5)

    public static let documented: [(value: ExpirationIntent, name: String)] = [
        (.customerCancelled, "CUSTOMER_CANCELLED"),
        (.billingError, "BILLING_ERROR"),
        (.customerDidNotConsentToPriceIncrease, "CUSTOMER_DID_NOT_CONSENT_TO_PRICE_INCREASE"),
        (.productNotAvailable, "PRODUCT_NOT_AVAILABLE"),
        (.other, "OTHER"),
    ]
}
