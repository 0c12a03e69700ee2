import Foundation

/// One in-app purchase product of the catalog, resolved from the `.storekit` file and the
/// entitlements file.
public struct Product: Hashable, Sendable {
    public var id: ProductID
    public var kind: ProductKind
    public var referenceName: String?
    public var price: Price?
    public var familyShareable: Bool
    /// The renewal period of an auto-renewable subscription, or the configured duration of a
    /// non-renewing subscription.
    public var period: ISODuration?
    public var subscriptionGroupID: String?
    /// Level within the subscription group; 1 is the highest level of service.
    public var groupLevel: Int?
    public var introductoryOffer: SubscriptionOffer?
    public var promotionalOffers: [SubscriptionOffer]
    public var offerCodes: [SubscriptionOffer]
    public var winBackOffers: [SubscriptionOffer]
    public var localizations: [ProductLocalization]
    /// The entitlements this product grants, sorted.
    public var entitlementIDs: [String]

    public init(
        id: ProductID, kind: ProductKind, referenceName: String? = nil, price: Price? = nil,
        familyShareable: Bool = false, period: ISODuration? = nil, subscriptionGroupID: String? = nil,
        groupLevel: Int? = nil, introductoryOffer: SubscriptionOffer? = nil,
        promotionalOffers: [SubscriptionOffer] = [], offerCodes: [SubscriptionOffer] = [],
        winBackOffers: [SubscriptionOffer] = [], localizations: [ProductLocalization] = [],
        entitlementIDs: [String] = []
    ) {
        self.id = id
        self.kind = kind
        self.referenceName = referenceName
        self.price = price
        self.familyShareable = familyShareable
        self.period = period
        self.subscriptionGroupID = subscriptionGroupID
        self.groupLevel = groupLevel
        self.introductoryOffer = introductoryOffer
        self.promotionalOffers = promotionalOffers
        self.offerCodes = offerCodes
        self.winBackOffers = winBackOffers
        self.localizations = localizations
        self.entitlementIDs = entitlementIDs
    }

    /// The display name in `locale`, else in the first localization, else the reference name.
    public func displayName(locale: String = "en_US") -> String {
        let localized = localizations.first { $0.locale == locale } ?? localizations.first
        return localized?.displayName ?? referenceName ?? id.rawValue
    }
}
