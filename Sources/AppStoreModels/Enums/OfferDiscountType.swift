import Foundation

/// The payment mode of a discount offer: free trial, pay as you go, pay up front, one time.
///
/// [OfferDiscountType](https://developer.apple.com/documentation/appstoreserverapi/offerdiscounttype)
public struct OfferDiscountType: AppStoreEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let freeTrial = OfferDiscountType(rawValue: "FREE_TRIAL")
    public static let payAsYouGo = OfferDiscountType(rawValue: "PAY_AS_YOU_GO")
    public static let payUpFront = OfferDiscountType(rawValue: "PAY_UP_FRONT")
    public static let oneTime = OfferDiscountType(rawValue: "ONE_TIME")

    public static let documented: [(value: OfferDiscountType, name: String)] = [
        (.freeTrial, "FREE_TRIAL"),
        (.payAsYouGo, "PAY_AS_YOU_GO"),
        (.payUpFront, "PAY_UP_FRONT"),
        (.oneTime, "ONE_TIME"),
    ]
}
