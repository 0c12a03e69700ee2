import EntitleCore
import EntitleWire
import Foundation

/// The paywall's view of a catalog: one offering, `default`, the current one.
enum OfferingsBuilder {
    static func response(_ catalog: Catalog) -> OfferingsResponse {
        let savings = Dictionary(catalog.yearlySavings.map { ($0.yearlyProductID, $0.percent) }, uniquingKeysWith: { first, _ in first })
        func offered(_ product: Product) -> OfferedProduct {
            let entitlements = catalog.entitlements(forProduct: product.id)
            let access = entitlements.reduce(AccessLevel.nothing) { $0.union($1.access) }
            let english = product.localizations.first { $0.locale.hasPrefix("en") } ?? product.localizations.first
            return OfferedProduct(
                productID: product.id.rawValue, kind: PurchaseKind(rawValue: product.kind.rawValue), displayName: english?.displayName ?? product.referenceName,
                description: english?.description,
                localizedNames: Dictionary(product.localizations.compactMap { l in l.displayName.map { (l.locale, $0) } }, uniquingKeysWith: { a, _ in a }),
                level: product.groupLevel, period: product.period?.description, price: product.price?.formattedAmount,
                priceMilliunits: product.price?.milliunits, currency: product.price?.currency ?? catalog.currency,
                introductoryOffer: product.introductoryOffer.map(offer), promotionalOffers: product.promotionalOffers.map(offer),
                winBackOffers: product.winBackOffers.map(offer), yearlySavingsPercent: savings[product.id],
                entitlements: entitlements.map(\.id).sorted(), features: access.features.sorted(),
                limits: access.limits.mapValues(\.maximum))
        }
        let groups = catalog.subscriptionGroups.map { group in
            OfferingGroup(id: group.id, name: group.name, products: group.productIDsByLevel.compactMap { catalog.product($0) }.map(offered))
        }
        let grouped = Set(catalog.subscriptionGroups.flatMap(\.productIDsByLevel))
        let others = catalog.products.filter { !grouped.contains($0.id) && $0.kind != .autoRenewable }.map(offered)
        return OfferingsResponse(
            currentOfferingID: Catalog.defaultOfferingID, offerings: [Offering(id: Catalog.defaultOfferingID, subscriptionGroups: groups, otherProducts: others)])
    }

    static func offer(_ offer: SubscriptionOffer) -> OfferInfo {
        OfferInfo(
            kind: OfferKind(rawValue: offer.kind.rawValue), id: offer.id, paymentMode: offer.paymentMode.rawValue, period: offer.period.description,
            numberOfPeriods: offer.numberOfPeriods, price: offer.price?.formattedAmount, priceMilliunits: offer.price?.milliunits)
    }
}
