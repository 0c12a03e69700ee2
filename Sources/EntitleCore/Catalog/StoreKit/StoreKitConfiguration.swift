import Foundation

/// Xcode's StoreKit configuration file (`.storekit`), decoded as Xcode writes it.
///
/// Keys Entitle doesn't use are ignored; a key it uses with the wrong JSON type is an error. Arrays
/// Xcode sometimes omits (an empty `codeOffers`, say) decode as empty.
public struct StoreKitConfiguration: Decodable, Sendable, Hashable {
    public var identifier: String?
    /// Consumables and non-consumables.
    public var products: [StoreKitProduct]
    public var nonRenewingSubscriptions: [StoreKitProduct]
    public var subscriptionGroups: [StoreKitSubscriptionGroup]
    public var settings: StoreKitSettings?
    public var version: StoreKitVersion?

    enum CodingKeys: String, CodingKey {
        case identifier, products, nonRenewingSubscriptions, subscriptionGroups, settings, version
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decodeIfPresent(String.self, forKey: .identifier)
        products = try container.decodeIfPresent([StoreKitProduct].self, forKey: .products) ?? []
        nonRenewingSubscriptions = try container.decodeIfPresent([StoreKitProduct].self, forKey: .nonRenewingSubscriptions) ?? []
        subscriptionGroups = try container.decodeIfPresent([StoreKitSubscriptionGroup].self, forKey: .subscriptionGroups) ?? []
        settings = try container.decodeIfPresent(StoreKitSettings.self, forKey: .settings)
        version = try container.decodeIfPresent(StoreKitVersion.self, forKey: .version)
    }
}
