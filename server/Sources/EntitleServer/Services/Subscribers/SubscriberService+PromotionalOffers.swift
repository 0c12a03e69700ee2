import AppStoreModels
import AppStoreServerAPI
import EntitleCore
import EntitleStorage
import Foundation
import Logging

extension SubscriberService {
    /// Signs the promotional offer `offerID` of `productID` for `appUserID`, when the catalog's rule
    /// for the offer admits them (``PromotionalOfferEligibility``), with the team's in-app purchase key:
    /// the signature over the subscriber's appAccountToken and a new nonce, and the compact JWS
    /// carrying their latest transaction in the product's group when there is one.
    public func promotionalOffer(
        appUserID: AppUserID, productID: ProductID, offerID: String, nonce: UUID = UUID()
    ) async throws(ServiceError) -> (signature: PromotionalOfferSignature, appAccountToken: UUID, compactJWS: String) {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        guard let product = catalog.product(productID), product.kind == .autoRenewable else {
            throw ServiceError(.unknownProduct, "\(productID) is not an auto-renewable subscription of \(bundleID)")
        }
        guard product.promotionalOffers.contains(where: { $0.id == offerID }) else {
            throw ServiceError(.unknownOffer, "\(productID) has no promotional offer \(offerID)")
        }
        guard let key = offerKey else {
            throw ServiceError(.appStoreNotConfigured, "\(bundleID) has no in-app purchase key to sign offers with (--app-store-key)")
        }
        let facts: SubscriberFacts?
        do {
            facts = try await projections.projection(appUserID: appUserID)
        } catch {
            throw ServiceError(error)
        }
        let at = now()
        let rule = catalog.promotionalOfferEligibility[offerID] ?? .subscribers
        guard rule.admits(facts, product: product, catalog: catalog, at: at) else {
            throw ServiceError(.offerNotEligible, "the offer \(offerID) is for \(rule.rawValue) subscribers of the group; \(appUserID) is not one")
        }
        let token = accountTokens.token(for: appUserID)
        let latest = latestTransaction(of: facts, inGroupOf: product)
        do {
            let signature = try PromotionalOfferSignature.sign(
                bundleID: bundleID.rawValue, productID: productID.rawValue, offerID: offerID, appAccountToken: token, key: key.privateKey, keyID: key.keyID,
                nonce: nonce, at: at)
            let jws = try PromotionalOfferJWS.sign(
                bundleID: bundleID.rawValue, productID: productID.rawValue, offerID: offerID, transactionID: latest?.transactionId, key: key.privateKey,
                keyID: key.keyID, issuerID: key.issuerID, nonce: nonce, at: at)
            logger.info("promotional offer signed", metadata: ["offer.id": "\(offerID)", "product.id": "\(productID)"])
            return (signature, token, jws)
        } catch {
            throw ServiceError(.internalError, "the offer could not be signed", underlying: error)
        }
    }
}
