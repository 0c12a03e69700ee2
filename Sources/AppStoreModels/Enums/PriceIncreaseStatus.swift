import Foundation

/// Whether the customer consented to a subscription price increase.
///
/// [PriceIncreaseStatus](https://developer.apple.com/documentation/appstoreserverapi/priceincreasestatus)
public struct PriceIncreaseStatus: AppStoreEnumeration {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let customerHasNotResponded = PriceIncreaseStatus(rawValue: 0)
    public static let customerConsentedOrWasNotifiedWithoutNeedingConsent = PriceIncreaseStatus(rawValue: 1)

    public static let documented: [(value: PriceIncreaseStatus, name: String)] = [
        (.customerHasNotResponded, "CUSTOMER_HAS_NOT_RESPONDED"),
        (.customerConsentedOrWasNotifiedWithoutNeedingConsent, "CUSTOMER_CONSENTED_OR_WAS_NOTIFIED_WITHOUT_NEEDING_CONSENT"),
    ]
}
