import AppStoreModels
import AppStoreServerAPI
import Crypto
import EntitleCore
import AsyncHTTPClient
import EntitleServer
import EntitleWire
import Foundation
import Hummingbird
import LocalAppStore
import Logging

/// The local App Store's HTTP face, beside the server in `entitle demo`: apps (EntitleKit's `LocalStore`,
/// the sample app) buy from it over HTTP and get transactions signed like StoreKit's, while the store
/// sends its notifications to the server's webhook. No key: it is a developer's local store.
struct LocalStoreController {
    let accounts: LocalStoreAccounts
    let delivery: NotificationDelivery
    let now: @Sendable () -> Date
    /// The in-app purchase keys promotional offers may be signed with, by key ID.
    var offerKeys: [String: P256.Signing.PublicKey] = [:]

    func addRoutes(to router: Router<EntitleRequestContext>) {
        let group = router.group("/local-store/v1/{bundleID}")
        group.post("purchases") { request, context -> LocalTransaction in
            let body = try await request.decode(as: LocalPurchaseRequest.self, context: context)
            let bundleID = try context.parameters.require("bundleID")
            if let offer = body.promotionalOffer {
                try checkSignature(offer, bundleID: bundleID, productID: body.productID, appAccountToken: body.appAccountToken)
            }
            let introductoryOffer = try body.introductoryOfferEligibility.map { jws in
                try checkIntroductoryOfferEligibility(jws, bundleID: bundleID, productID: body.productID)
            }
            let purchase: StorePurchase
            do {
                purchase = try accounts.purchase(
                    bundleID: bundleID, productID: body.productID, account: body.account,
                    appAccountToken: body.appAccountToken, promotionalOffer: body.promotionalOffer?.offerID, introductoryOffer: introductoryOffer, at: now())
            } catch {
                throw ServiceError(.invalidRequest, "\(error)")
            }
            _ = try? await delivery.deliver(purchase.notifications)
            return LocalTransaction(
                signedTransaction: purchase.signedTransaction, transactionID: purchase.transaction.transactionId ?? "",
                productID: purchase.transaction.productId ?? "")
        }
        group.post("refunds") { request, context -> LocalTransaction in
            let body = try await request.decode(as: LocalRefundRequest.self, context: context)
            let bundleID = try context.parameters.require("bundleID")
            let notifications: [SignedNotification]
            do {
                notifications = try accounts.refund(
                    bundleID: bundleID, account: body.account, originalTransactionID: body.originalTransactionID, at: now())
            } catch {
                throw ServiceError(.invalidRequest, "\(error)")
            }
            _ = try? await delivery.deliver(notifications)
            let latest = accounts.updates(bundleID: bundleID, account: body.account, after: 0).last
            return LocalTransaction(signedTransaction: latest?.signed ?? "", transactionID: "", productID: latest?.product ?? "")
        }
        group.get("updates") { request, context -> [LocalTransaction] in
            guard let account = request.uri.queryParameters.get("account") else { throw ServiceError(.invalidRequest, "name the store account") }
            let after = request.uri.queryParameters.get("after").flatMap { Int($0) } ?? 0
            return accounts.updates(bundleID: try context.parameters.require("bundleID"), account: String(account), after: after).map {
                LocalTransaction(signedTransaction: $0.signed, transactionID: "", productID: $0.product)
            }
        }
        group.get("products") { _, context -> [LocalProduct] in
            guard let catalog = accounts.catalog(bundleID: try context.parameters.require("bundleID")) else {
                throw ServiceError(.notFound, "no such app in the local store")
            }
            return catalog.products.map { product in
                LocalProduct(
                    productID: product.id.rawValue, displayName: StoreDisplay.name(of: product), displayPrice: StoreDisplay.price(product.price, in: catalog))
            }
        }
        group.get("transactions") { request, context -> [LocalTransaction] in
            guard let account = request.uri.queryParameters.get("account") else { throw ServiceError(.invalidRequest, "name the store account") }
            do {
                return try accounts.transactions(bundleID: context.parameters.require("bundleID"), account: String(account), at: now()).map {
                    LocalTransaction(signedTransaction: $0.signed, transactionID: "", productID: $0.product)
                }
            } catch {
                throw ServiceError(.invalidRequest, "\(error)")
            }
        }
    }

    /// Apple's check of a promotional offer's signature: a key it knows, ECDSA P-256 over the U+2063-joined
    /// fields with the purchase's own bundle, product and appAccountToken, signed within the last 24 hours.
    func checkSignature(_ offer: LocalPromotionalOffer, bundleID: String, productID: String, appAccountToken: UUID?) throws {
        guard let key = offerKeys[offer.keyID] else { throw ServiceError(.invalidRequest, "invalid offer signature: unknown key \(offer.keyID)") }
        let signedAt = Date(timeIntervalSince1970: Double(offer.timestamp) / 1000)
        guard abs(now().timeIntervalSince(signedAt)) <= 86_400 else { throw ServiceError(.invalidRequest, "invalid offer signature: expired") }
        let payload = PromotionalOfferSignature.payload(
            bundleID: bundleID, keyID: offer.keyID, productID: productID, offerID: offer.offerID, appAccountToken: appAccountToken,
            nonce: offer.nonce, timestamp: offer.timestamp)
        guard let der = Data(base64Encoded: offer.signature), let signature = try? P256.Signing.ECDSASignature(derRepresentation: der),
            key.isValidSignature(signature, for: Data(payload.utf8))
        else { throw ServiceError(.invalidRequest, "invalid offer signature") }
    }
}

extension LocalStoreController {
    /// Apple's check of an introductory-offer eligibility JWS (``IntroductoryOfferEligibilityJWS``):
    /// ES256 by an in-app purchase key it knows (`kid`), for this purchase's bundle and product, signed
    /// within the last 24 hours; returns `allowIntroductoryOffer`.
    func checkIntroductoryOfferEligibility(_ jws: String, bundleID: String, productID: String) throws -> Bool {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Base64URL.decode(parts[0].utf8), let payload = Base64URL.decode(parts[1].utf8),
            let signature = Base64URL.decode(parts[2].utf8),
            let headerFields = try? JSONSerialization.jsonObject(with: Data(header)) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
        else { throw ServiceError(.invalidRequest, "invalid introductory offer eligibility: not a compact JWS") }
        guard headerFields["alg"] as? String == "ES256", let keyID = headerFields["kid"] as? String, let key = offerKeys[keyID] else {
            throw ServiceError(.invalidRequest, "invalid introductory offer eligibility: not ES256 by a known key")
        }
        guard let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: Data(signature)),
            key.isValidSignature(ecdsa, for: Data("\(parts[0]).\(parts[1])".utf8))
        else { throw ServiceError(.invalidRequest, "invalid introductory offer eligibility: bad signature") }
        guard claims["aud"] as? String == IntroductoryOfferEligibilityJWS.audience, claims["bid"] as? String == bundleID,
            claims["productId"] as? String == productID, let allowed = claims["allowIntroductoryOffer"] as? Bool
        else { throw ServiceError(.invalidRequest, "invalid introductory offer eligibility: not for this app and product") }
        guard let issued = (claims["iat"] as? NSNumber)?.doubleValue, abs(now().timeIntervalSince1970 - issued) <= 86_400 else {
            throw ServiceError(.invalidRequest, "invalid introductory offer eligibility: expired")
        }
        return allowed
    }
}

extension LocalTransaction: @retroactive ResponseEncodable {}
extension LocalProduct: @retroactive ResponseEncodable {}
