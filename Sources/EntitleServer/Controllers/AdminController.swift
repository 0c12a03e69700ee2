import EntitleCore
import EntitleWire
import Foundation
import Hummingbird

/// What an operator's backend does with a secret key: grants and overrides, household members, a
/// subscriber's events, per-subscriber public keys, the open-access switch, purchase look-ups.
struct AdminController {
    let keys: APIKeys

    func addRoutes(to router: Router<EntitleRequestContext>, select: AppSelectionMiddleware, secret: AuthenticationMiddleware) {
        let subscriber = router.group("/v1/subscribers/{appUserID}").add(middleware: select).add(middleware: secret)
        subscriber.post("grants") { request, context -> SubscriberResponse in
            let body = try await request.decode(as: GrantRequest.self, context: context)
            return SubscriberResponseBuilder.response(
                try await context.service.grant(
                    appUserID: context.subscriberID(), entitlementID: body.entitlementID, startsAt: body.startsAt,
                    endsAt: body.endsAt, reason: body.reason))
        }
        subscriber.delete("grants/{grantID}") { _, context -> SubscriberResponse in
            SubscriberResponseBuilder.response(
                try await context.service.revokeGrant(appUserID: context.subscriberID(), grantID: context.parameters.require("grantID")))
        }
        subscriber.post("overrides") { request, context -> SubscriberResponse in
            let body = try await request.decode(as: OverrideRequest.self, context: context)
            return SubscriberResponseBuilder.response(
                try await context.service.addOverride(appUserID: context.subscriberID(), endsAt: body.endsAt, reason: body.reason))
        }
        subscriber.delete("overrides/{overrideID}") { _, context -> SubscriberResponse in
            SubscriberResponseBuilder.response(
                try await context.service.removeOverride(
                    appUserID: context.subscriberID(), overrideID: context.parameters.require("overrideID")))
        }
        subscriber.put("members/{memberID}") { _, context -> SubscriberResponse in
            SubscriberResponseBuilder.response(
                try await context.service.addMember(householdID: context.subscriberID(), memberID: context.subscriberID("memberID")))
        }
        subscriber.delete("members/{memberID}") { _, context -> SubscriberResponse in
            SubscriberResponseBuilder.response(
                try await context.service.removeMember(
                    householdID: context.subscriberID(), memberID: context.subscriberID("memberID")))
        }
        subscriber.get("events") { _, context -> [TimelineEvent] in
            try await context.service.timeline(appUserID: context.subscriberID()).map(TimelineEvent.init)
        }
        subscriber.post("keys") { _, context -> [String: String] in
            let appUserID = try context.subscriberID()
            try SubscriptionService.validate(appUserID)
            guard let key = keys.publicKey(for: appUserID, app: context.isPrimaryApp ? nil : try context.service.bundleID) else {
                throw ServiceError(.invalidRequest, "no public-key secret is configured")
            }
            return ["appUserID": appUserID, "publicKey": key]
        }

        let openAccess = router.group("/v1/open-access").add(middleware: select).add(middleware: secret)
        openAccess.get { _, context -> OpenAccessResponse in
            OpenAccessResponse(try await context.service.openAccess())
        }
        openAccess.put { request, context -> OpenAccessResponse in
            let body = try await request.decode(as: OpenAccessRequest.self, context: context)
            return OpenAccessResponse(try await context.service.setOpenAccess(endsAt: body.endsAt, entitlementIDs: body.entitlementIDs ?? [], reason: body.reason))
        }
        openAccess.delete { _, context -> OpenAccessResponse in
            OpenAccessResponse(try await context.service.setOpenAccess(endsAt: nil, entitlementIDs: [], reason: nil))
        }

        router.group("/v1/purchases").add(middleware: select).add(middleware: secret).get("{originalTransactionID}") { _, context -> PurchaseLookupResponse in
            let lookup = try await context.service.lookup(originalTransactionID: context.parameters.require("originalTransactionID"))
            return PurchaseLookupResponse(originalTransactionID: lookup.originalTransactionID, appUserID: lookup.owner, heldEvents: lookup.heldEvents)
        }
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
            transactionID: event.transactionID, originalTransactionID: event.originalTransactionID, signedDate: event.signedDate,
            receivedAt: event.receivedAt)
    }
}
