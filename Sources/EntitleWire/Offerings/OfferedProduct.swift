import Foundation

/// One product on a paywall: as the `.storekit` file defines it (price, period, offers, names) and what
/// it grants (entitlements, features, limits).
public struct OfferedProduct: Codable, Hashable, Sendable {
    public var productID: String
    /// `auto_renewable`, `non_renewing`, `non_consumable`, `consumable`.
    public var kind: PurchaseKind
    public var displayName: String?
    public var description: String?
    /// Display names by locale, when the `.storekit` file has several.
    public var localizedNames: [String: String]
    /// The level in its subscription group: 1 is the highest level of service.
    public var level: Int?
    /// ISO 8601 duration of a subscription period (or a non-renewing subscription's length).
    public var period: String?
    /// The price as the store shows it, a decimal in `currency` (`"9.99"`).
    public var price: String?
    /// The price in thousandths of `currency`, as Apple's transactions carry it.
    public var priceMilliunits: Int64?
    public var currency: String?
    public var introductoryOffer: OfferInfo?
    public var promotionalOffers: [OfferInfo]
    public var winBackOffers: [OfferInfo]
    /// How much cheaper a year is than twelve months of the matching monthly product (percent).
    public var yearlySavingsPercent: Int?
    public var entitlements: [String]
    /// The features the product grants (with its entitlements), sorted.
    public var features: [String]
    /// The numeric limits it grants; `null` for unlimited.
    public var limits: [String: Int?]
    /// A subscriber's offerings only: whether their introductory offer is theirs (Apple's rule: none
    /// had in the group); absent when the product has none.
    public var introductoryOfferEligible: Bool?
    /// That answer signed for StoreKit (`introductoryOfferEligibility(compactJWS:)`), when the server
    /// has the app's in-app purchase key.
    public var introductoryOfferEligibilityJWS: String?
    /// A subscriber's offerings only: the promotional offers the catalog's rules admit them to.
    public var eligiblePromotionalOfferIDs: [String]?
    /// A subscriber's offerings only: the win-back offers Apple lists for them (`eligibleWinBackOfferIds`).
    public var eligibleWinBackOfferIDs: [String]?

    public init(
        productID: String, kind: PurchaseKind, displayName: String?, description: String?, localizedNames: [String: String], level: Int?,
        period: String?, price: String?, priceMilliunits: Int64?, currency: String?, introductoryOffer: OfferInfo?,
        promotionalOffers: [OfferInfo], winBackOffers: [OfferInfo], yearlySavingsPercent: Int?, entitlements: [String], features: [String],
        limits: [String: Int?]
    ) {
        self.productID = productID
        self.kind = kind
        self.displayName = displayName
        self.description = description
        self.localizedNames = localizedNames
        self.level = level
        self.period = period
        self.price = price
        self.priceMilliunits = priceMilliunits
        self.currency = currency
        self.introductoryOffer = introductoryOffer
        self.promotionalOffers = promotionalOffers
        self.winBackOffers = winBackOffers
        self.yearlySavingsPercent = yearlySavingsPercent
        self.entitlements = entitlements
        self.features = features
        self.limits = limits
    }
}
