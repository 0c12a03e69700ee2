import AppStoreModels
import Foundation

/// Who a promotional offer is signed for. StoreKit lets any customer redeem a signed offer, so the
/// server's signature is the gate.
public enum PromotionalOfferEligibility: String, Hashable, Sendable, CaseIterable {
    /// Customers who subscribed in the product's subscription group before and have no active
    /// subscription in it now (win back a lapsed subscriber).
    case lapsed
    /// Customers who subscribe, or subscribed, in the product's group (Apple's own audience for
    /// promotional offers: existing and lapsed subscribers). The default.
    case subscribers
    /// Every customer.
    case anyone

    /// Whether `facts` admit the offer of `product` under this rule at `now`.
    public func admits(_ facts: SubscriberFacts?, product: Product, catalog: Catalog, at now: Date) -> Bool {
        if self == .anyone { return true }
        let inGroup = (facts?.purchases.values).map(Array.init)?.compactMap(\.currentTransaction).filter { transaction in
            guard let id = transaction.productId, let bought = catalog.product(ProductID(id)) else { return false }
            return bought.subscriptionGroupID != nil && bought.subscriptionGroupID == product.subscriptionGroupID
        } ?? []
        guard !inGroup.isEmpty else { return false }
        if self == .subscribers { return true }
        return !inGroup.contains { transaction in
            transaction.revocationDate == nil && (transaction.expiresDate ?? .distantPast) > now
        }
    }
}
