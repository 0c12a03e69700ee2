import AppStoreModels
import AppStoreServerAPI
import EntitleCore
import Foundation

extension SubscriberService {
    /// What the subscriber may have of each subscription's offers (``OfferEligibility``): the
    /// introductory offer (signed for StoreKit with the app's in-app purchase key when the server has
    /// it, carrying their latest transaction in the group), the promotional offers the catalog's rules
    /// admit them to, and the win-back offers Apple lists for them — of a subscriber whose facts are `facts`.
    public func offerEligibility(of facts: SubscriberFacts) throws(ServiceError) -> [ProductID: OfferEligibilityAnswer] {
        let at = now()
        var answers: [ProductID: OfferEligibilityAnswer] = [:]
        for product in catalog.products where product.kind == .autoRenewable {
            let eligibility = OfferEligibility.eligibility(of: facts, for: product, in: catalog, at: at)
            var jws: String?
            if let allowed = eligibility.introductoryOffer, let key = offerKey {
                let latest = latestTransaction(of: facts, inGroupOf: product)
                do {
                    jws = try IntroductoryOfferEligibilityJWS.sign(
                        bundleID: bundleID.rawValue, productID: product.id.rawValue, allowIntroductoryOffer: allowed, transactionID: latest?.transactionId,
                        key: key.privateKey, keyID: key.keyID, issuerID: key.issuerID, nonce: UUID(), at: at)
                } catch {
                    throw ServiceError(.internalError, "the introductory offer eligibility could not be signed", underlying: error)
                }
            }
            answers[product.id] = OfferEligibilityAnswer(eligibility: eligibility, introductoryOfferJWS: jws)
        }
        return answers
    }

    /// The subscriber's latest current transaction in `product`'s subscription group: the one Apple's
    /// signed offer requests name (`transactionId`).
    func latestTransaction(of facts: SubscriberFacts?, inGroupOf product: Product) -> JWSTransactionDecodedPayload? {
        (facts?.purchases.values).map(Array.init)?.compactMap(\.currentTransaction).filter { transaction in
            transaction.productId.flatMap { catalog.product(ProductID($0)) }?.subscriptionGroupID == product.subscriptionGroupID
        }.max { ($0.purchaseDate ?? .distantPast) < ($1.purchaseDate ?? .distantPast) }
    }
}
