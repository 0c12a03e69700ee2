import AppStoreModels
import Foundation

/// Who may have which offer (docs/growth.md), answered by the core for the server's offerings and
/// the introductory-offer eligibility it signs for StoreKit:
///
/// - **Introductory offer**: Apple's rule — nobody who has had one for any product of the subscription
///   group, whether it is still running, ended, or was refunded.
/// - **Promotional offers**: the catalog's rule for each (``PromotionalOfferEligibility``): `subscribers`
///   (subscribes or subscribed in the group), `lapsed` (subscribed, nothing active now) or `anyone`.
/// - **Win-back offers**: Apple decides; the latest renewal info of the subscriber's chains in the
///   group lists the ones they may redeem (`eligibleWinBackOfferIds`), and only those of the product.
public enum OfferEligibility {
    /// What `facts` may have of `product`'s offers at `now`.
    public static func eligibility(of facts: SubscriberFacts?, for product: Product, in catalog: Catalog, at now: Date) -> ProductEligibility {
        let chains = (facts?.purchases.values).map(Array.init)?.filter { chain in
            guard let group = product.subscriptionGroupID, let id = chain.currentTransaction?.productId ?? chain.renewalInfo?.productId else { return false }
            return catalog.product(ProductID(id))?.subscriptionGroupID == group
        } ?? []
        let introductory: Bool? = product.kind == .autoRenewable && product.introductoryOffer != nil
            ? !chains.contains { $0.introductoryOfferAt != nil }
            : nil
        let promotional = product.kind == .autoRenewable
            ? product.promotionalOffers.compactMap(\.id).filter { id in
                (catalog.promotionalOfferEligibility[id] ?? .subscribers).admits(facts, product: product, catalog: catalog, at: now)
            }
            : []
        let offered = Set(product.winBackOffers.compactMap(\.id))
        let latest = chains.compactMap(\.renewalInfo).max { ($0.signedDate ?? .distantPast) < ($1.signedDate ?? .distantPast) }
        let winBack = (latest?.eligibleWinBackOfferIds ?? []).filter(offered.contains)
        return ProductEligibility(productID: product.id, introductoryOffer: introductory, promotionalOfferIDs: promotional, winBackOfferIDs: winBack)
    }
}
