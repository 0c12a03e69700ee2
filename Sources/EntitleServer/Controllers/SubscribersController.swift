import AppStoreServerAPI
import EntitleWire
import Hummingbird

/// What an app does for its user under `/v1/subscribers/{appUserID}`: read the subscriber, submit
/// a transaction, report an Ask to Buy request or its decline, start the app-managed trial, record usage, ask for access to a feature.
struct SubscribersController {

    func addRoutes(to group: RouterGroup<EntitleRequestContext>) {
        group.get { request, context -> SubscriberResponse in
            let access = request.uri.queryParameters.get("access")
            guard access == nil || access == "periods" else { throw ServiceError(.invalidRequest, "access is periods, or absent") }
            let periods = access == "periods"
            return SubscriberResponseBuilder.response(try await context.service.subscriber(appUserID: context.subscriberID(), accessPeriods: periods))
        }
        group.post("transactions") { request, context -> SubscriberResponse in
            let body = try await request.decode(as: SubmitTransactionRequest.self, context: context)
            switch (body.signedTransaction, body.transactionId) {
            case (let signed?, nil):
                return SubscriberResponseBuilder.response(
                    try await context.service.submitTransaction(appUserID: context.subscriberID(), signedTransaction: signed))
            case (nil, let transactionID?):
                return SubscriberResponseBuilder.response(
                    try await context.service.submitTransaction(appUserID: context.subscriberID(), transactionID: transactionID))
            default:
                throw ServiceError(.invalidRequest, "send signedTransaction or transactionId, one of them")
            }
        }
        group.post("promotional-offers") { request, context -> PromotionalOfferResponse in
            let body = try await request.decode(as: PromotionalOfferRequest.self, context: context)
            let offer = try await context.service.promotionalOffer(appUserID: context.subscriberID(), productID: body.productID, offerID: body.offerID)
            return PromotionalOfferResponse(
                productID: body.productID, offerID: body.offerID, keyID: offer.signature.keyID, nonce: offer.signature.nonce,
                timestamp: offer.signature.timestamp, signature: offer.signature.signature, appAccountToken: offer.appAccountToken,
                compactJWS: offer.compactJWS)
        }
        group.post("pending-purchases") { request, context -> SubscriberResponse in
            let body = try await request.decode(as: PendingPurchaseRequest.self, context: context)
            return SubscriberResponseBuilder.response(
                try await context.service.reportPendingPurchase(appUserID: context.subscriberID(), productID: body.productID))
        }
        group.post("pending-purchases/{productID}/decline") { _, context -> SubscriberResponse in
            SubscriberResponseBuilder.response(
                try await context.service.declinePendingPurchase(
                    appUserID: context.subscriberID(), productID: context.parameters.require("productID")))
        }
        group.put("app-account-token") { request, context -> SubscriberResponse in
            let body = try await request.decode(as: AppAccountTokenRequest.self, context: context)
            return SubscriberResponseBuilder.response(
                try await context.service.registerAccountToken(appUserID: context.subscriberID(), token: body.appAccountToken))
        }
        group.post("alias") { request, context -> SubscriberResponse in
            let body = try await request.decode(as: AliasRequest.self, context: context)
            let known = try EntitleRequestContext.normalizeSubscriberID(body.appUserID)
            return SubscriberResponseBuilder.response(try await context.service.logIn(anonymous: context.subscriberID(), as: known))
        }
        group.patch("attributes") { request, context -> SubscriberResponse in
            let body = try await request.decode(as: SetAttributesRequest.self, context: context)
            return SubscriberResponseBuilder.response(try await context.service.setAttributes(appUserID: context.subscriberID(), body.values))
        }
        group.post("trial") { _, context -> SubscriberResponse in
            SubscriberResponseBuilder.response(try await context.service.startTrial(appUserID: context.subscriberID()))
        }
        group.post("usage") { request, context -> AccessResponse in
            let body = try await request.decode(as: RecordUsageRequest.self, context: context)
            return SubscriberResponseBuilder.access(
                try await context.service.recordUsage(
                    appUserID: context.subscriberID(), feature: body.feature, amount: body.amount ?? 1,
                    idempotencyKey: body.idempotencyKey))
        }
        group.get("access/{feature}") { request, context -> AccessResponse in
            let usage = request.uri.queryParameters.get("usage").map { Int($0) } ?? 1
            guard let usage, (0...SubscriptionService.maximumUsage).contains(usage) else {
                throw ServiceError(.invalidRequest, "usage is a whole number from 0 to \(SubscriptionService.maximumUsage)")
            }
            return SubscriberResponseBuilder.access(
                try await context.service.access(
                    appUserID: context.subscriberID(), feature: context.parameters.require("feature"), usage: usage))
        }
    }
}
