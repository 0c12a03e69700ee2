import AppStoreServerAPI
import EntitleCore
import EntitleWire
import HTTPTypes
import Hummingbird

/// What an app does for its user under `/v1/subscribers/{appUserID}`: read the subscriber, submit
/// a transaction, report an Ask to Buy request or its decline, start the app-managed trial, record usage, register items
/// counted against a limit (paired devices), ask for access to a feature, delete the customer.
struct SubscribersController {
    /// Mints the public key a log-in with a token returns.
    let keys: APIKeys
    /// The response header of a log-in with a token: the known user's own public key.
    static let subscriberKeyHeader = HTTPField.Name.entitleSubscriberKey

    func addRoutes(to group: RouterGroup<EntitleRequestContext>) {
        group.get { request, context -> SubscriberResponse in
            let access = request.uri.queryParameters.get("access")
            guard access == nil || access == "periods" else { throw ServiceError(.invalidRequest, "access is periods, or absent") }
            let periods = access == "periods"
            return SubscriberResponseBuilder.response(try await context.services.subscribers.subscriber(appUserID: context.subscriberID(), accessPeriods: periods))
        }
        group.delete { _, context -> SubscriberDeletionResponse in
            try Self.requireDeletionRight(context)
            return try await context.services.erasure.delete(appUserID: context.subscriberID())
        }
        group.post("transactions") { request, context -> SubscriberResponse in
            let body = try await request.decode(as: SubmitTransactionRequest.self, context: context)
            switch (body.signedTransaction, body.transactionId) {
            case (let signed?, nil):
                return SubscriberResponseBuilder.response(
                    try await context.services.ingestion.submitTransaction(
                        appUserID: context.subscriberID(), signedTransaction: signed, claims: body.transfer ?? true))
            case (nil, let transactionID?):
                return SubscriberResponseBuilder.response(
                    try await context.services.appStore.submitTransaction(appUserID: context.subscriberID(), transactionID: transactionID))
            default:
                throw ServiceError(.invalidRequest, "send signedTransaction or transactionId, one of them")
            }
        }
        group.post("promotional-offers") { request, context -> PromotionalOfferResponse in
            let body = try await request.decode(as: PromotionalOfferRequest.self, context: context)
            let offer = try await context.services.subscribers.promotionalOffer(appUserID: context.subscriberID(), productID: ProductID(body.productID), offerID: body.offerID)
            return PromotionalOfferResponse(
                productID: body.productID, offerID: body.offerID, keyID: offer.signature.keyID, nonce: offer.signature.nonce,
                timestamp: offer.signature.timestamp, signature: offer.signature.signature, appAccountToken: offer.appAccountToken,
                compactJWS: offer.compactJWS)
        }
        group.post("pending-purchases") { request, context -> SubscriberResponse in
            let body = try await request.decode(as: PendingPurchaseRequest.self, context: context)
            return SubscriberResponseBuilder.response(
                try await context.services.subscribers.reportPendingPurchase(appUserID: context.subscriberID(), productID: ProductID(body.productID)))
        }
        group.post("pending-purchases/{productID}/decline") { _, context -> SubscriberResponse in
            SubscriberResponseBuilder.response(
                try await context.services.subscribers.declinePendingPurchase(
                    appUserID: context.subscriberID(), productID: ProductID(context.parameters.require("productID"))))
        }
        group.put("app-account-token") { request, context -> SubscriberResponse in
            let body = try await request.decode(as: AppAccountTokenRequest.self, context: context)
            return SubscriberResponseBuilder.response(
                try await context.services.subscribers.registerAccountToken(appUserID: context.subscriberID(), token: body.appAccountToken))
        }
        group.post("alias") { request, context -> Response in
            let body = try await request.decode(as: AliasRequest.self, context: context)
            let known = try EntitleRequestContext.normalizeSubscriberID(body.appUserID)
            let service = try context.services
            if let token = body.logInToken {
                try service.subscribers.verifyLogInToken(token, for: known)
            } else {
                try Self.requireNoToken(context)
            }
            let answer = try await service.subscribers.logIn(anonymous: context.subscriberID(), as: known)
            var response = try SubscriberResponseBuilder.response(answer).response(from: request, context: context)
            // Proven by the backend: the app reaches the known user with their own key from now on.
            if body.logInToken != nil, let key = keys.publicKey(for: known, app: context.isPrimaryApp ? nil : service.bundleID) {
                response.headers[Self.subscriberKeyHeader] = key
            }
            return response
        }
        group.patch("attributes") { request, context -> SubscriberResponse in
            let body = try await request.decode(as: SetAttributesRequest.self, context: context)
            return SubscriberResponseBuilder.response(try await context.services.subscribers.setAttributes(appUserID: context.subscriberID(), body.values))
        }
        group.post("trial") { _, context -> SubscriberResponse in
            SubscriberResponseBuilder.response(try await context.services.subscribers.startTrial(appUserID: context.subscriberID()))
        }
        group.post("usage") { request, context -> AccessResponse in
            let body = try await request.decode(as: RecordUsageRequest.self, context: context)
            return SubscriberResponseBuilder.access(
                try await context.services.subscribers.recordUsage(
                    appUserID: context.subscriberID(), feature: body.feature, amount: body.amount ?? 1,
                    idempotencyKey: body.idempotencyKey))
        }
        group.post("paywall-events") { request, context -> PaywallEventsResponse in
            let body = try await request.decode(as: PaywallEventsRequest.self, context: context)
            let report = try await context.services.growth.recordPaywallEvents(appUserID: context.subscriberID(), body.events)
            return PaywallEventsResponse(recorded: report.recorded, duplicates: report.duplicates)
        }
        group.get("offerings") { request, context -> OfferingsResponse in
            let query = request.uri.queryParameters
            let services = try context.services
            let appUserID = try context.subscriberID()
            let (served, facts) = try await services.experiments.servedOffering(
                appUserID: appUserID, storefront: query.get("storefront"), appVersion: query.get("appVersion"))
            return OfferingsBuilder.response(services.catalog, served: served, eligibility: try services.subscribers.offerEligibility(of: facts))
        }
        group.get("items") { request, context -> ItemsResponse in
            let answer = try await context.services.subscribers.subscriber(appUserID: context.subscriberID())
            let limit = request.uri.queryParameters.get("limit")
            return ItemsResponse(
                items: answer.access.items.filter { limit == nil || $0.limit == limit }.map(SubscriberResponseBuilder.item), serverTime: answer.access.evaluatedAt)
        }
        group.post("items") { request, context -> ItemRegistrationResponse in
            let body = try await request.decode(as: RegisterItemRequest.self, context: context)
            let outcome = try await context.services.items.register(appUserID: context.subscriberID(), limit: body.limit, itemID: body.id, name: body.name)
            return ItemRegistrationResponse(
                registered: outcome.registered, access: SubscriberResponseBuilder.access(outcome.access),
                items: outcome.answer.access.items.map(SubscriberResponseBuilder.item))
        }
        group.patch("items/{limit}/{itemID}") { request, context -> ItemsResponse in
            let body = try await request.decode(as: RenameItemRequest.self, context: context)
            let answer = try await context.services.items.rename(
                appUserID: context.subscriberID(), limit: context.parameters.require("limit"), itemID: context.parameters.require("itemID"), name: body.name)
            return ItemsResponse(items: answer.access.items.map(SubscriberResponseBuilder.item), serverTime: answer.access.evaluatedAt)
        }
        group.delete("items/{limit}/{itemID}") { _, context -> ItemsResponse in
            let answer = try await context.services.items.remove(
                appUserID: context.subscriberID(), limit: context.parameters.require("limit"), itemID: context.parameters.require("itemID"))
            return ItemsResponse(items: answer.access.items.map(SubscriberResponseBuilder.item), serverTime: answer.access.evaluatedAt)
        }
        group.get("access/{feature}") { request, context -> AccessResponse in
            let usage = request.uri.queryParameters.get("usage").map { Int($0) } ?? 1
            guard let usage, (0...InputRules.maximumUsage).contains(usage) else {
                throw ServiceError(.invalidRequest, "usage is a whole number from 0 to \(InputRules.maximumUsage)")
            }
            return SubscriberResponseBuilder.access(
                try await context.services.subscribers.access(
                    appUserID: context.subscriberID(), feature: context.parameters.require("feature"), usage: usage))
        }
    }

    /// Who may delete a customer: the backend (a secret key), the customer (their per-subscriber key), and
    /// an app key of an app that doesn't ask for log-in tokens (it trusts the app with its users' IDs).
    static func requireDeletionRight(_ context: EntitleRequestContext) throws(ServiceError) {
        if case .appKey = context.identity, (try? context.services.catalog.logInTokens?.requiredForAppKeys) == true {
            throw ServiceError(
                .logInTokenRequired,
                "this app's keys delete a customer only with the customer's own key (after a log-in with a token) or from its backend (a secret key)")
        }
    }

    /// Who may log in without a token from the app's backend: a secret key (the backend itself), and an
    /// app key of an app that doesn't ask for tokens. A per-subscriber key never: it reaches one person.
    static func requireNoToken(_ context: EntitleRequestContext) throws(ServiceError) {
        switch context.identity {
        case .subscriber:
            throw ServiceError(
                .logInTokenRequired, "a per-subscriber key logs in only with a log-in token signed by the app's backend (logInToken)")
        case .appKey where (try? context.services.catalog.logInTokens?.requiredForAppKeys) == true:
            throw ServiceError(.logInTokenRequired, "this app's keys log in only with a log-in token signed by its backend (logInToken)")
        default:
            return
        }
    }
}

extension SubscriberDeletionResponse: @retroactive ResponseEncodable {}
