import AppStoreModels
import AppStoreServerAPI
import AppStoreVerification
import EntitleCore
import EntitleStorage
import Foundation
import Logging

/// Apple's Retention Messaging API: when a customer is about to cancel, Apple asks the app's Get Retention
/// Message endpoint, in real time, which message to show. The request is verified as Apple signs it; the
/// answer comes from the catalog's `retentionMessages` rules (``RetentionRule``): a message, a switch to
/// another plan of the group, or a promotional offer signed with the app's in-app purchase key for a
/// customer the offer's eligibility rule admits. No rule: an empty answer, and Apple shows the app's
/// default message, if any.
public struct RetentionService: SubscriberReading {
    let context: AppContext
    let projections: any ProjectionStore
    let identity: any IdentityStore
    let verifiers: [SignedDataVerifier]
    let offerKey: InAppPurchaseKey?

    init(
        context: AppContext, projections: any ProjectionStore, identity: any IdentityStore, verifiers: [SignedDataVerifier],
        offerKey: InAppPurchaseKey?
    ) {
        self.context = context
        self.projections = projections
        self.identity = identity
        self.verifiers = verifiers
        self.offerKey = offerKey
    }

    /// The answer to one Get Retention Message request, and the rule that gave it (`nil`: none applied).
    public func answer(signedPayload: String) async throws(ServiceError) -> (body: RealtimeResponseBody, rule: RetentionRule?) {
        let request = try await verify(signedPayload)
        let original = OriginalTransactionID(request.originalTransactionId ?? "")
        let productID = ProductID(request.productId ?? "")
        guard let product = catalog.product(productID), product.kind == .autoRenewable else {
            throw ServiceError(.unknownProduct, "\(productID) is not an auto-renewable subscription of \(bundleID)")
        }
        let offers = catalog.retentionRules.contains { if case .promotionalOffer = $0.action { true } else { false } }
        // The customer's facts, only when an offer's eligibility needs them.
        let facts = offers && offerKey != nil ? try await customer(of: original) : nil
        let at = now()
        let rule = RetentionRule.choose(among: catalog.retentionRules, productID: productID, locale: request.userLocale ?? "", catalog: catalog) { offerID in
            guard offerKey != nil else { return false }
            return (catalog.promotionalOfferEligibility[offerID] ?? .subscribers).admits(facts, product: product, catalog: catalog, at: at)
        }
        var body = RealtimeResponseBody()
        switch rule?.action {
        case .message(let message)?:
            body.message = .init(messageIdentifier: message)
        case .alternateProduct(let alternate, let message)?:
            body.alternateProduct = .init(messageIdentifier: message, productId: alternate.rawValue)
        case .promotionalOffer(let offerID, let message)?:
            guard let key = offerKey else { break }
            do {
                let jws = try PromotionalOfferJWS.sign(
                    bundleID: bundleID.rawValue, productID: productID.rawValue, offerID: offerID, transactionID: original.rawValue, key: key.privateKey,
                    keyID: key.keyID, issuerID: key.issuerID, nonce: UUID(), at: at)
                body.promotionalOffer = .init(messageIdentifier: message, promotionalOfferSignatureV2: jws)
            } catch {
                throw ServiceError(.internalError, "the retention offer could not be signed", underlying: error)
            }
        case nil:
            break
        }
        let outcome = Self.outcome(of: rule)
        metrics.recordRetentionRequest(app: bundleID, outcome: outcome)
        logger.info("retention message chosen", metadata: ["retention.outcome": "\(outcome)", "product.id": "\(productID)"])
        return (body, rule)
    }

    /// What the answer offered, for metrics: `message`, `alternate_product`, `promotional_offer` or `none`.
    static func outcome(of rule: RetentionRule?) -> String {
        switch rule?.action {
        case .message?: "message"
        case .alternateProduct?: "alternate_product"
        case .promotionalOffer?: "promotional_offer"
        case nil: "none"
        }
    }

    private func verify(_ signedPayload: String) async throws(ServiceError) -> DecodedRealtimeRequestBody {
        do {
            return try await verifiers.firstAccepting { verifier throws(VerificationError) in try await verifier.verifyRealtimeRequest(signedPayload) }
        } catch {
            metrics.recordRetentionRequest(app: bundleID, outcome: error.code.rawValue)
            throw ServiceError(error)
        }
    }

    /// The facts of the subscriber who owns the purchase chain, if one does.
    private func customer(of original: OriginalTransactionID) async throws(ServiceError) -> SubscriberFacts? {
        do {
            guard let owner = try await identity.owner(originalTransactionID: original) else { return nil }
            return try await projections.projection(appUserID: owner)
        } catch {
            throw ServiceError(error)
        }
    }
}
