import Foundation

/// An entry of `products` (consumable, non-consumable) or `nonRenewingSubscriptions` in a `.storekit` file.
public struct StoreKitProduct: Decodable, Sendable, Hashable {
    public var productID: String
    public var referenceName: String?
    /// `Consumable`, `NonConsumable` or `NonRenewingSubscription`.
    public var type: String
    public var displayPrice: String?
    public var familyShareable: Bool
    public var internalID: String?
    public var localizations: [StoreKitLocalization]

    enum CodingKeys: String, CodingKey {
        case productID, referenceName, type, displayPrice, familyShareable, internalID, localizations
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        productID = try container.decode(String.self, forKey: .productID)
        referenceName = try container.decodeIfPresent(String.self, forKey: .referenceName)
        type = try container.decode(String.self, forKey: .type)
        displayPrice = try container.decodeIfPresent(String.self, forKey: .displayPrice)
        familyShareable = try container.decodeIfPresent(Bool.self, forKey: .familyShareable) ?? false
        internalID = try container.decodeIfPresent(String.self, forKey: .internalID)
        localizations = try container.decodeIfPresent([StoreKitLocalization].self, forKey: .localizations) ?? []
    }
}
