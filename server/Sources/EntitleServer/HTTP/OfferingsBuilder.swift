import EntitleCore
import EntitleWire
import Foundation

/// The paywall's view of a catalog: its offerings, the default one current.
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
        let offerings = catalog.offerings.map { definition in
            let included = Set(definition.productIDs)
            let order = Dictionary(definition.productIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            let groups = catalog.subscriptionGroups.compactMap { group -> OfferingGroup? in
                let products = group.productIDsByLevel.filter(included.contains).compactMap { catalog.product($0) }
                return products.isEmpty ? nil : OfferingGroup(id: group.id, name: group.name, products: products.map(offered))
            }
            let grouped = Set(catalog.subscriptionGroups.flatMap(\.productIDsByLevel))
            let others = definition.productIDs.filter { !grouped.contains($0) }.compactMap { catalog.product($0) }
                .filter { $0.kind != .autoRenewable }.sorted { order[$0.id, default: 0] < order[$1.id, default: 0] }.map(offered)
            return Offering(
                id: definition.id, productIDs: definition.productIDs.map(\.rawValue), highlightedProductID: definition.highlighted?.rawValue,
                metadata: definition.metadata, subscriptionGroups: groups, otherProducts: others)
        }
        return OfferingsResponse(currentOfferingID: catalog.defaultOfferingID, offerings: offerings)
    }

    /// The catalog's offerings with the one `served` current, and why, each product with what
    /// `eligibility` says the subscriber may have of its offers.
    static func response(_ catalog: Catalog, served: ServedOffering, eligibility: [ProductID: OfferEligibilityAnswer] = [:]) -> OfferingsResponse {
        var response = response(catalog)
        func answer(_ product: inout OfferedProduct) {
            guard let answer = eligibility[ProductID(product.productID)] else { return }
            product.introductoryOfferEligible = answer.eligibility.introductoryOffer
            product.introductoryOfferEligibilityJWS = answer.introductoryOfferJWS
            product.eligiblePromotionalOfferIDs = answer.eligibility.promotionalOfferIDs
            product.eligibleWinBackOfferIDs = answer.eligibility.winBackOfferIDs
        }
        for offering in response.offerings.indices {
            for group in response.offerings[offering].subscriptionGroups.indices {
                for product in response.offerings[offering].subscriptionGroups[group].products.indices {
                    answer(&response.offerings[offering].subscriptionGroups[group].products[product])
                }
            }
            for product in response.offerings[offering].otherProducts.indices { answer(&response.offerings[offering].otherProducts[product]) }
        }
        response.currentOfferingID = served.offeringID
        switch served.reason {
        case .experiment(let id, let variant):
            (response.servedBy, response.experimentID, response.variantID) = ("experiment", id, variant)
        case .rolledOut(let id, let variant):
            (response.servedBy, response.experimentID, response.variantID) = ("rolled_out", id, variant)
        case .targeting:
            response.servedBy = "targeting"
        case .default:
            response.servedBy = "default"
        }
        return response
    }

    static func offer(_ offer: SubscriptionOffer) -> OfferInfo {
        OfferInfo(
            kind: OfferKind(rawValue: offer.kind.rawValue), id: offer.id, paymentMode: offer.paymentMode.rawValue, period: offer.period.description,
            numberOfPeriods: offer.numberOfPeriods, price: offer.price?.formattedAmount, priceMilliunits: offer.price?.milliunits)
    }
}
