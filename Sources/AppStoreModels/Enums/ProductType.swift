import Foundation

/// The type of the in-app purchase product.
///
/// [ProductType](https://developer.apple.com/documentation/appstoreserverapi/type)
public struct ProductType: AppStoreEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let autoRenewable = ProductType(rawValue: "Auto-Renewable Subscription")
    public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
    public static let consumable = ProductType(rawValue: "Consumable")
    public static let nonRenewing = ProductType(rawValue: "Non-Renewing Subscription")

    public static let documented: [(value: ProductType, name: String)] = [
        (.autoRenewable, "AUTO_RENEWABLE"),
        (.nonConsumable, "NON_CONSUMABLE"),
        (.consumable, "CONSUMABLE"),
        (.nonRenewing, "NON_RENEWING"),
    ]
}
