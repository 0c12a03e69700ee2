import Foundation

/// An auto-renewable subscription in a `.storekit` subscription group.
public struct StoreKitSubscription: Decodable, Sendable, Hashable {
    public var productID: String
    public var referenceName: String?
    public var type: String?
    public var displayPrice: String?
    public var familyShareable: Bool
    /// The level within the group; 1 is the highest level of service.
    public var groupNumber: Int?
    public var internalID: String?
    public var recurringSubscriptionPeriod: String
    public var subscriptionGroupID: String?
    public var introductoryOffer: StoreKitOffer?
    /// Promotional offers (Xcode's name for them).
    public var adHocOffers: [StoreKitOffer]
    /// Offer codes.
    public var codeOffers: [StoreKitOffer]
    public var winbackOffers: [StoreKitOffer]
    public var localizations: [StoreKitLocalization]

    enum CodingKeys: String, CodingKey {
        case productID, referenceName, type, displayPrice, familyShareable, groupNumber, internalID
        case recurringSubscriptionPeriod, subscriptionGroupID, introductoryOffer, adHocOffers, codeOffers
        case winbackOffers, localizations
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        productID = try container.decode(String.self, forKey: .productID)
        referenceName = try container.decodeIfPresent(String.self, forKey: .referenceName)
        type = try container.decodeIfPresent(String.self, forKey: .type)
        displayPrice = try container.decodeIfPresent(String.self, forKey: .displayPrice)
        familyShareable = try container.decodeIfPresent(Bool.self, forKey: .familyShareable) ?? false
        groupNumber = try container.decodeIfPresent(Int.self, forKey: .groupNumber)
        internalID = try container.decodeIfPresent(String.self, forKey: .internalID)
        recurringSubscriptionPeriod = try container.decode(String.self, forKey: .recurringSubscriptionPeriod)
        subscriptionGroupID = try container.decodeIfPresent(String.self, forKey: .subscriptionGroupID)
        introductoryOffer = try container.decodeIfPresent(StoreKitOffer.self, forKey: .introductoryOffer)
        adHocOffers = try container.decodeIfPresent([StoreKitOffer].self, forKey: .adHocOffers) ?? []
        codeOffers = try container.decodeIfPresent([StoreKitOffer].self, forKey: .codeOffers) ?? []
        winbackOffers = try container.decodeIfPresent([StoreKitOffer].self, forKey: .winbackOffers) ?? []
        localizations = try container.decodeIfPresent([StoreKitLocalization].self, forKey: .localizations) ?? []
    }
}
