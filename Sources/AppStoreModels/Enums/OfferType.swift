import Foundation

/// The type of subscription offer a transaction or renewal uses.
///
/// [OfferType](https://developer.apple.com/documentation/appstoreserverapi/offertype)
public struct OfferType: AppStoreEnumeration {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let introductoryOffer = OfferType(rawValue: 1)
    public static let promotionalOffer = OfferType(rawValue: 2)
    public static let subscriptionOfferCode = OfferType(rawValue: 3)
    public static let winBackOffer = OfferType(rawValue: 4)

    public static let documented: [(value: OfferType, name: String)] = [
        (.introductoryOffer, "INTRODUCTORY_OFFER"),
        (.promotionalOffer, "PROMOTIONAL_OFFER"),
        (.subscriptionOfferCode, "SUBSCRIPTION_OFFER_CODE"),
        (.winBackOffer, "WIN_BACK_OFFER"),
    ]
}
