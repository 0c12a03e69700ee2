import AppStoreModels
import EntitleCore
import EntitleWire
import Foundation
import Hummingbird

/// What an operator's backend does with a secret key: grants and overrides, household members, a
/// subscriber's events, per-subscriber public keys, the open-access switch, purchase look-ups.
struct AdminController {
    let keys: APIKeys
    let stored: StoredKeys
    /// The longest `Prefer: wait=N` a start request may ask for (RFC 7240).
    static let longestWait = 30

    func addRoutes(to router: Router<EntitleRequestContext>, select: AppSelectionMiddleware, secret: AuthenticationMiddleware) {
        let subscriber = router.group("/v1/subscribers/{appUserID}").add(middleware: select).authenticated(by: secret)
        subscriber.post("grants") { request, context -> SubscriberResponse in
            let body = try await request.decode(as: GrantRequest.self, context: context)
            return SubscriberResponseBuilder.response(
                try await context.services.admin.grant(
                    appUserID: context.subscriberID(), entitlementID: body.entitlementID, startsAt: body.startsAt,
                    endsAt: body.endsAt, reason: body.reason))
        }
        subscriber.delete("grants/{grantID}") { _, context -> SubscriberResponse in
            SubscriberResponseBuilder.response(
                try await context.services.admin.revokeGrant(appUserID: context.subscriberID(), grantID: context.parameters.require("grantID")))
        }
        subscriber.post("trial/extensions") { request, context -> SubscriberResponse in
            let body = try await request.decode(as: AppTrialExtensionRequest.self, context: context)
            return SubscriberResponseBuilder.response(
                try await context.services.admin.extendAppTrial(appUserID: context.subscriberID(), days: body.days, reason: body.reason))
        }
        subscriber.post("overrides") { request, context -> SubscriberResponse in
            let body = try await request.decode(as: OverrideRequest.self, context: context)
            return SubscriberResponseBuilder.response(
                try await context.services.admin.addOverride(appUserID: context.subscriberID(), endsAt: body.endsAt, reason: body.reason))
        }
        subscriber.delete("overrides/{overrideID}") { _, context -> SubscriberResponse in
            SubscriberResponseBuilder.response(
                try await context.services.admin.removeOverride(
                    appUserID: context.subscriberID(), overrideID: context.parameters.require("overrideID")))
        }
        subscriber.put("members/{memberID}") { _, context -> SubscriberResponse in
            SubscriberResponseBuilder.response(
                try await context.services.admin.addMember(householdID: context.subscriberID(), memberID: context.subscriberID("memberID")))
        }
        subscriber.delete("members/{memberID}") { _, context -> SubscriberResponse in
            SubscriberResponseBuilder.response(
                try await context.services.admin.removeMember(
                    householdID: context.subscriberID(), memberID: context.subscriberID("memberID")))
        }
        subscriber.post("refresh") { _, context -> SubscriberResponse in
            SubscriberResponseBuilder.response(try await context.services.appStore.refreshFromAppStore(appUserID: context.subscriberID()))
        }
        subscriber.get("app-transaction") { _, context -> AppTransactionResponse in
            let app = try await context.services.appStore.appTransaction(appUserID: context.subscriberID())
            return AppTransactionResponse(
                appTransactionID: app.appTransactionId, originalPurchaseDate: app.originalPurchaseDate,
                originalApplicationVersion: app.originalApplicationVersion, applicationVersion: app.applicationVersion,
                originalPlatform: app.originalPlatform?.rawValue, preorderDate: app.preorderDate, environment: app.receiptType?.rawValue)
        }
        subscriber.post("renewal-extensions") { request, context -> SubscriberResponse in
            let body = try await request.decode(as: RenewalExtensionRequest.self, context: context)
            return SubscriberResponseBuilder.response(
                try await context.services.appStore.extendRenewal(
                    appUserID: context.subscriberID(), originalTransactionID: body.originalTransactionID.map { OriginalTransactionID($0) }, days: body.days, reasonCode: body.reasonCode))
        }
        subscriber.get("events") { _, context -> [TimelineEvent] in
            try await context.services.admin.timeline(appUserID: context.subscriberID()).map(TimelineEvent.init)
        }
        subscriber.post("keys") { _, context -> [String: String] in
            let appUserID = try context.subscriberID()
            try InputRules.validate(appUserID)
            guard let key = keys.publicKey(for: appUserID, app: context.isPrimaryApp ? nil : try context.services.bundleID) else {
                throw ServiceError(.invalidRequest, "no public-key secret is configured")
            }
            return ["appUserID": appUserID.rawValue, "publicKey": key]
        }

        let apiKeys = router.group("/v1/keys").add(middleware: select).authenticated(by: secret)
        apiKeys.post { request, context -> Response in
            let body = try await request.decode(as: CreateKeyRequest.self, context: context)
            let created = try await stored.create(app: try context.services.bundleID, kindNamed: body.kind.rawValue, name: body.name, scopeNamed: body.scope)
            var info = KeyInfo(created.stored)
            info.key = created.key
            return try Response.json(info, status: .created)
        }
        apiKeys.get { _, context -> [KeyInfo] in
            try await stored.keys(app: try context.services.bundleID).map(KeyInfo.init)
        }
        apiKeys.delete("{keyID}") { _, context -> KeyInfo in
            let services = try context.services
            return KeyInfo(try await stored.revoke(id: context.parameters.require("keyID"), app: services.bundleID, at: services.context.now()))
        }

        let openAccess = router.group("/v1/open-access").add(middleware: select).authenticated(by: secret)
        openAccess.get { _, context -> OpenAccessResponse in
            OpenAccessResponse(try await context.services.admin.openAccess())
        }
        openAccess.put { request, context -> OpenAccessResponse in
            let body = try await request.decode(as: OpenAccessRequest.self, context: context)
            return OpenAccessResponse(try await context.services.admin.setOpenAccess(endsAt: body.endsAt, entitlementIDs: body.entitlementIDs ?? [], reason: body.reason))
        }
        openAccess.delete { _, context -> OpenAccessResponse in
            OpenAccessResponse(try await context.services.admin.setOpenAccess(endsAt: nil, entitlementIDs: [], reason: nil))
        }

        // A pass can take minutes on a long history: the request starts it as a job and the caller
        // polls; `Prefer: wait=N` waits up to N seconds for it to end first.
        let reconciliation = router.group("/v1/reconciliation").add(middleware: select).authenticated(by: secret)
        reconciliation.post { request, context -> Response in
            let body = try await request.decodeIfPresent(as: ReconciliationRequest.self, context: context) ?? ReconciliationRequest()
            let wait = try Self.preferredWait(request)
            let service = try context.services
            let job = try ReconciliationJobResponse(
                try await service.appStore.startReconciliation(since: body.since, waitingUpTo: .seconds(wait)), app: service.bundleID.rawValue)
            var response = try Response.json(job, status: job.isRunning ? .accepted : .ok)
            response.headers[.location] = "/v1/reconciliation/\(job.id)"
            return response
        }
        reconciliation.get("{jobID}") { _, context -> ReconciliationJobResponse in
            let service = try context.services
            return try ReconciliationJobResponse(try await service.appStore.reconciliationJob(id: context.parameters.require("jobID")), app: service.bundleID.rawValue)
        }

        router.group("/v1/audit-log").add(middleware: select).authenticated(by: secret).get { request, context -> AuditLogResponse in
            let query = request.uri.queryParameters
            guard let limit = query.get("limit").map({ Int($0) }) ?? 100 else { throw ServiceError(.invalidRequest, "limit is a whole number") }
            var before: Int64?
            if let text = query.get("before") {
                guard let value = Int64(text) else { throw ServiceError(.invalidRequest, "before is a sequence number from a previous page's next") }
                before = value
            }
            return try await context.services.audit.entries(before: before, limit: limit)
        }
        router.group("/v1/set-aside-events").add(middleware: select).authenticated(by: secret).get { request, context -> SetAsideEventsResponse in
            let limit = request.uri.queryParameters.get("limit").map { Int($0) } ?? 100
            guard let limit else { throw ServiceError(.invalidRequest, "limit is a whole number from 1 to 1000") }
            return SetAsideEventsResponse(try await context.services.analytics.setAsideEvents(limit: limit))
        }

        router.group("/v1/orders").add(middleware: select).authenticated(by: secret).get("{orderID}") { _, context -> OrderResponse in
            OrderResponse(try await context.services.appStore.lookUpOrder(context.parameters.require("orderID")))
        }

        router.group("/v1/transactions").add(middleware: select).authenticated(by: secret).post("{transactionID}/finish") { _, context -> FinishTransactionResponse in
            let transactionID = try context.parameters.require("transactionID")
            try await context.services.appStore.finishTransaction(transactionID)
            return FinishTransactionResponse(transactionID: transactionID, finished: true)
        }

        router.group("/v1/purchases").add(middleware: select).authenticated(by: secret).get("{originalTransactionID}") { _, context -> PurchaseLookupResponse in
            let lookup = try await context.services.admin.lookup(originalTransactionID: OriginalTransactionID(context.parameters.require("originalTransactionID")))
            return PurchaseLookupResponse(originalTransactionID: lookup.originalTransactionID.rawValue, appUserID: lookup.owner?.rawValue, heldEvents: lookup.heldEvents)
        }
    }
}

extension OrderResponse: @retroactive ResponseEncodable {
    init(_ lookup: OrderLookup) {
        self.init(
            orderID: lookup.orderID, found: lookup.found,
            purchases: lookup.purchases.map { purchase in
                let transaction = purchase.transaction
                return Purchase(
                    originalTransactionID: transaction.originalTransactionId ?? transaction.transactionId ?? "", transactionID: transaction.transactionId ?? "",
                    productID: transaction.productId ?? "", purchasedAt: transaction.purchaseDate, revokedAt: transaction.revocationDate,
                    appUserID: purchase.owner?.rawValue)
            })
    }
}

extension ReconciliationResponse: @retroactive ResponseEncodable {
    init(_ report: ReconciliationReport) {
        self.init(
            app: report.app.rawValue, from: report.from, to: report.to, notificationsRead: report.notificationsRead, notificationsAdded: report.notificationsAdded,
            notificationsRefused: report.notificationsRefused, purchasesChecked: report.purchasesChecked, statusEventsAdded: report.statusEventsAdded,
            purchasesUnanswered: report.purchasesUnanswered, heldPurchasesChecked: report.heldPurchasesChecked, heldPurchasesLinked: report.heldPurchasesLinked, skipped: report.skipped,
            seconds: report.seconds)
    }
}

extension OpenAccessResponse {
    init(_ window: OpenAccessWindow?) {
        self.init(
            isOn: window != nil, startsAt: window?.startsAt, endsAt: window?.endsAt, entitlementIDs: window?.entitlementIDs ?? [],
            reason: window?.reason)
    }
}

extension TimelineEvent {
    /// A ledger event as the timeline shows it: no signed payload.
    init(_ event: LedgerEvent) {
        self.init(
            id: event.id.uuidString.lowercased(), source: event.source.rawValue, kind: event.payload.kind, notificationUUID: event.notificationUUID,
            transactionID: event.transactionID, originalTransactionID: event.originalTransactionID?.rawValue, signedDate: event.signedDate,
            receivedAt: event.receivedAt)
    }
}

extension AuditLogResponse: @retroactive ResponseEncodable {}
