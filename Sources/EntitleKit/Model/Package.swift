import EntitleCore
import EntitleWire
import Foundation

/// One product on a paywall: as the `.storekit` file defines it (names, price, period, offers), what it
/// grants (entitlements, features, limits), and what this user may redeem.
public struct Package: Sendable, Hashable, Identifiable {
    /// The product ID: what ``Entitle/purchase(_:promotionalOfferID:winBackOfferID:)`` buys.
    public var id: String
    public var kind: Subscription.Kind
    public var displayName: String?
    public var description: String?
    /// Display names by locale, when the `.storekit` file has several.
    public var localizedNames: [String: String]
    /// The subscription group it belongs to, and its level there (1 is the highest level of service).
    public var subscriptionGroupID: String?
    public var level: Int?
    /// A subscription's period (or a non-renewing subscription's length).
    public var period: SubscriptionPeriod?
    /// The price as a decimal in ``currency``; the device's StoreKit price (``StoreProduct/displayPrice``)
    /// is the one to show where the storefront differs.
    public var price: Decimal?
    /// ISO 4217 (`USD`).
    public var currency: String?
    public var introductoryOffer: Offer?
    public var promotionalOffers: [Offer]
    public var winBackOffers: [Offer]
    /// How much cheaper a year is than twelve months of the matching monthly product, in percent.
    public var yearlySavingsPercent: Int?
    public var entitlements: [String]
    /// The features it grants, sorted.
    public var features: [String]
    /// The numeric limits it grants (`childDevices: .maximum(5)`).
    public var limits: [String: Limit]
    /// Whether this user's introductory offer is still theirs (none had in the group); `nil` when the
    /// product has none or the offerings are not this user's.
    public var isEligibleForIntroductoryOffer: Bool?
    /// The promotional offers the catalog's rules admit this user to.
    public var eligiblePromotionalOfferIDs: [String]
    /// The win-back offers Apple lists for this user.
    public var eligibleWinBackOfferIDs: [String]
    /// The server's signed eligibility for the introductory offer, passed to StoreKit on purchase.
    let introductoryOfferEligibilityJWS: String?

    /// What the paywall says of a yearly product's saving ("Save 17%": EntitleCore's
    /// `YearlySavings.label(percent:)`, the server's wording too); `nil` when it has none.
    public var yearlySavingsLabel: String? { yearlySavingsPercent.map { YearlySavings.label(percent: $0) } }

    init(_ wire: OfferedProduct, subscriptionGroupID: String?) {
        id = wire.productID
        kind = Subscription.Kind(wire.kind)
        displayName = wire.displayName
        description = wire.description
        localizedNames = wire.localizedNames
        self.subscriptionGroupID = subscriptionGroupID
        level = wire.level
        period = wire.period.flatMap(SubscriptionPeriod.init(iso8601:))
        price = wire.price.flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) }
        currency = wire.currency
        introductoryOffer = wire.introductoryOffer.map(Offer.init)
        promotionalOffers = wire.promotionalOffers.map(Offer.init)
        winBackOffers = wire.winBackOffers.map(Offer.init)
        yearlySavingsPercent = wire.yearlySavingsPercent
        entitlements = wire.entitlements
        features = wire.features
        limits = wire.limits.mapValues(Limit.init)
        isEligibleForIntroductoryOffer = wire.introductoryOfferEligible
        eligiblePromotionalOfferIDs = wire.eligiblePromotionalOfferIDs ?? []
        eligibleWinBackOfferIDs = wire.eligibleWinBackOfferIDs ?? []
        introductoryOfferEligibilityJWS = wire.introductoryOfferEligibilityJWS
    }
}
