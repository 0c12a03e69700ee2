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

    /// A change the store plays on one purchase of `account` (a refund, an expiry): its notifications
    /// delivered to the server, and the account's latest transaction update answered.
    private func change(
        _ context: EntitleRequestContext, account: String, _ play: (String, Date) throws(LocalStoreError) -> [SignedNotification]
    ) async throws -> LocalTransaction {
        let bundleID = try context.parameters.require("bundleID")
        let notifications: [SignedNotification]
        do {
            notifications = try play(bundleID, now())
        } catch {
            throw ServiceError(.invalidRequest, "\(error)")
        }
        _ = try? await delivery.deliver(notifications)
        let latest = accounts.updates(bundleID: bundleID, account: account, after: 0).last
        return LocalTransaction(signedTransaction: latest?.signed ?? "", transactionID: "", productID: latest?.product ?? "")
    }

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
                    appAccountToken: body.appAccountToken, promotionalOffer: body.promotionalOffer?.offerID, introductoryOffer: introductoryOffer,
                    winBackOffer: body.winBackOfferID, at: now())
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
            return try await change(context, account: body.account) { bundleID, now throws(LocalStoreError) in
                try accounts.refund(bundleID: bundleID, account: body.account, originalTransactionID: body.originalTransactionID, at: now)
            }
        }
        group.post("expirations") { request, context -> LocalTransaction in
            let body = try await request.decode(as: LocalExpiryRequest.self, context: context)
            return try await change(context, account: body.account) { bundleID, now throws(LocalStoreError) in
                try accounts.expire(bundleID: bundleID, account: body.account, originalTransactionID: body.originalTransactionID, at: now)
            }
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

    /// Apple's checks of what the app's server signed, shared with the StoreKit backend (``OfferSignatureCheck``).
    var offerCheck: OfferSignatureCheck { OfferSignatureCheck(keys: offerKeys, now: now) }

    func checkSignature(_ offer: LocalPromotionalOffer, bundleID: String, productID: String, appAccountToken: UUID?) throws {
        do {
            try offerCheck.promotionalOffer(
                offerID: offer.offerID, keyID: offer.keyID, nonce: offer.nonce, timestamp: offer.timestamp, signature: offer.signature, bundleID: bundleID,
                productID: productID, appAccountToken: appAccountToken)
        } catch {
            throw ServiceError(.invalidRequest, error.message)
        }
    }

    func checkIntroductoryOfferEligibility(_ jws: String, bundleID: String, productID: String) throws -> Bool {
        do {
            return try offerCheck.introductoryOfferEligibility(jws, bundleID: bundleID, productID: productID)
        } catch {
            throw ServiceError(.invalidRequest, error.message)
        }
    }
}

extension LocalTransaction: @retroactive ResponseEncodable {}
extension LocalProduct: @retroactive ResponseEncodable {}
