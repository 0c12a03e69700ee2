import Foundation

/// What kind of product a purchase or an offered product is.
public struct PurchaseKind: WireVocabulary {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let autoRenewable = PurchaseKind(rawValue: "auto_renewable")
    public static let nonRenewing = PurchaseKind(rawValue: "non_renewing")
    public static let nonConsumable = PurchaseKind(rawValue: "non_consumable")
    public static let consumable = PurchaseKind(rawValue: "consumable")

    public static let known: [PurchaseKind] = [.autoRenewable, .nonRenewing, .nonConsumable, .consumable]
}
