import EntitleCore
import EntitleStorage
import EntitleTestSupport
import Foundation
import Testing

extension LedgerStoreConformanceTests {
    static let jane: AppUserID = "jane@example.com"
    static let janesPseudonym: AppUserID = "$erased:0000000000000000000000000000000a"
    static let janesAnonymousID: AppUserID = "$anon:0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a"

    /// Jane with a purchase, attributes, a named device, an operator's note, an anonymous install merged
    /// in and a purchase restored from Carol; Bob holding a purchase she claimed; a kid in her household.
    static func janesWorld(_ store: any LedgerStore) async throws {
        for event in history(user: jane, original: "2000", seedBase: 7_000) + history(user: "bob", original: "3000", seedBase: 7_200)
            + history(user: "carol", original: "4000", seedBase: 7_400)
        {
            _ = try await store.append(event)
        }
        _ = try await store.append(LedgerEvent(
            id: LedgerEvents.id(7_600), appUserID: jane, source: .attributes, idempotencyKey: "attributes:7600", signedDate: day(3), receivedAt: day(3),
            payload: .attributesSet(["email": "jane@example.com", "displayName": "Jane Doe", "timeZone": "Europe/Berlin"])))
        _ = try await store.append(LedgerEvents.admin(
            7_601, appUserID: jane, at: day(4),
            .item(ItemChange(limit: "childDevices", itemID: "ipad-1", action: .register, name: "Jane's iPad", at: day(4)))))
        _ = try await store.append(LedgerEvents.admin(
            7_602, appUserID: jane, at: day(5),
            .grant(EntitlementGrant(id: "g-jane", entitlementID: "premium", startsAt: day(5), endsAt: day(9), reason: "jane@example.com asked"))))
        _ = try await store.append(LedgerEvents.admin(7_603, appUserID: janesAnonymousID, at: day(1), .appTrialStarted(at: day(1))))
        #expect(try await store.merge(anonymous: janesAnonymousID, into: jane, at: day(6)) == .merged)
        #expect(try await store.transfer(originalTransactionID: "4000", to: jane, at: day(7)) == "carol")
        _ = try await store.append(LedgerEvent(
            id: LedgerEvents.id(7_604), appUserID: "bob", source: .restore, idempotencyKey: "purchase-claim:3000:\(jane)", signedDate: day(8),
            receivedAt: day(8), payload: .purchaseClaimed(originalTransactionID: "3000", by: jane, at: day(8))))
        _ = try await store.append(LedgerEvents.admin(7_605, appUserID: "kid", at: day(9), .householdJoined(householdID: jane, at: day(9))))
    }

    static func mentionsJane(_ value: some Encodable) throws -> Bool {
        let text = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        return ["jane@example.com", "Jane Doe", "Jane's iPad"].contains { text.contains($0) }
    }

    @Test("a customer's erasure: nothing names her; her purchases, time zone and facts stay under the pseudonym; everyone touched folds again the same",
          arguments: StorageEngine.allCases)
    func erasure(engine: StorageEngine) async throws {
        try await engine.withStore { root in
            let store = root.forApp("com.example.one")
            try await Self.janesWorld(store)
            let webhooks = store.webhookStore()
            try await webhooks.addEndpoint(WebhookStoreConformanceTests.endpoint("e1"))
            var snapshotFacts = try #require(try await store.projection(appUserID: Self.jane))
            snapshotFacts.recordAttribute("email", "jane@example.com", at: Self.day(3))
            _ = try await webhooks.publish(WebhookBatch(
                deliveries: [WebhookStoreConformanceTests.delivery("ev-jane", user: Self.jane), WebhookStoreConformanceTests.delivery("ev-bob", user: "bob")],
                snapshots: [Self.jane: WebhookSnapshot(facts: snapshotFacts, at: Self.day(8))], firedAt: Self.day(8)))
            // An operator granted her something; another logged an anonymous install in as her.
            try await store.auditLog().append(AuditEntry(
                at: Self.day(9), actor: "key:k1 (support)", action: "POST /v1/subscribers/{appUserID}/grants", subject: Self.jane.rawValue,
                request: #"{"entitlementID":"premium","reason":"asked"}"#, status: 200, requestID: "r1"))
            try await store.auditLog().append(AuditEntry(
                at: Self.day(9), actor: "key:k1 (support)", action: "POST /v1/subscribers/{appUserID}/alias", subject: Self.janesAnonymousID.rawValue,
                request: #"{"appUserID":"jane@example.com"}"#, status: 200, requestID: "r2"))
            let before = try #require(try await store.projection(appUserID: Self.jane))
            let ownEvents = try await store.events(appUserID: Self.jane).count

            let erasure = SubscriberErasure(subject: Self.jane, pseudonym: Self.janesPseudonym, at: Self.day(10))
            let outcome = try #require(try await store.erase(erasure, eventID: LedgerEvents.id(7_700)))
            #expect(outcome.events == ownEvents)
            #expect(outcome.others == ["$anon:0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a", "bob", "carol", "kid"])
            #expect(outcome.mentions == 4, "the anonymous install's merge, Bob's claim, Carol's transfer, the kid's household")

            // Nothing of hers under her ID.
            #expect(try await store.projection(appUserID: Self.jane) == nil)
            #expect(try await store.events(appUserID: Self.jane).isEmpty)
            #expect(try await store.aliasTarget(Self.janesAnonymousID) == nil)
            #expect(try await !store.subscriberIDs().contains(Self.jane))
            // Her record, under the pseudonym: the purchases, the time zone, the device and grant without their words.
            let facts = try #require(try await store.projection(appUserID: Self.janesPseudonym))
            #expect(facts.purchases == before.purchases)
            #expect(Set(facts.purchases.keys) == ["2000", "4000"])
            #expect(facts.attributes == ["timeZone": "Europe/Berlin"] && facts.erasedAt == Self.day(10))
            #expect(facts.items["childDevices"]?["ipad-1"]?.isRegistered == true && facts.items["childDevices"]?["ipad-1"]?.name == nil)
            #expect(facts.grants.map(\.reason) == [nil] && facts.grants.count == before.grants.count)
            #expect(try await store.owner(originalTransactionID: "2000") == Self.janesPseudonym)
            #expect(try await store.owner(originalTransactionID: "4000") == Self.janesPseudonym)
            let pseudonymous = try await store.events(appUserID: Self.janesPseudonym)
            #expect(pseudonymous.count == ownEvents + 1)
            #expect(pseudonymous.filter { $0.rawSignedPayload != nil }.count == 12, "Apple's signed data kept as received")
            #expect(try !Self.mentionsJane(pseudonymous))
            // The others: named by the pseudonym now.
            for other: AppUserID in ["bob", "carol", "kid", Self.janesAnonymousID] {
                #expect(try !Self.mentionsJane(try await store.events(appUserID: other)), "\(other)'s events")
                #expect(try !Self.mentionsJane(try #require(try await store.projection(appUserID: other))), "\(other)'s projection")
            }
            #expect(try await store.projection(appUserID: "kid")?.households.keys.contains(Self.janesPseudonym) == true)
            #expect(try await store.projection(appUserID: "bob")?.purchaseClaims["3000"]?.keys.contains(Self.janesPseudonym.rawValue) == true)
            // Webhooks: her deliveries gone, Bob's kept; her snapshot erased under the pseudonym.
            #expect(try await webhooks.deliveries(endpointID: nil, appUserID: Self.jane, status: nil, limit: 10).isEmpty)
            #expect(try await webhooks.deliveries(endpointID: nil, appUserID: "bob", status: nil, limit: 10).count == 1)
            #expect(try await webhooks.snapshots(appUserIDs: [Self.jane]).isEmpty)
            #expect(try await webhooks.snapshots(appUserIDs: [Self.janesPseudonym])[Self.janesPseudonym]?.facts.attributes == ["timeZone": "Europe/Berlin"])
            // The audit log names the pseudonym where it named her, and keeps the rest.
            let audit = try await store.auditLog().entries(before: nil, limit: 10)
            #expect(audit.map(\.subject) == [Self.janesAnonymousID.rawValue, Self.janesPseudonym.rawValue])
            #expect(audit.first?.request == #"{"appUserID":"\#(Self.janesPseudonym.rawValue)"}"#)
            #expect(try !Self.mentionsJane(audit.map(\.request)))
            // Every projection is the fold of its events; asked again, nothing is left to erase.
            #expect(try await store.rebuildProjections(keepingDifferences: 5).differed == 0)
            #expect(try await store.erase(erasure, eventID: LedgerEvents.id(7_701)) == nil)
            // Her ID is free: a new account under it starts empty.
            _ = try await store.append(LedgerEvents.admin(7_702, appUserID: Self.jane, at: Self.day(11), .appTrialStarted(at: Self.day(11))))
            #expect(try await store.projection(appUserID: Self.jane)?.purchases.isEmpty == true)
        }
    }

    @Test("a delivered subscriber_deleted keeps no payload; other deliveries keep theirs", arguments: StorageEngine.allCases)
    func deletionPayloadRedacted(engine: StorageEngine) async throws {
        try await engine.withStore { root in
            let webhooks = root.forApp("com.example.one").webhookStore()
            try await webhooks.addEndpoint(WebhookStoreConformanceTests.endpoint("e1"))
            var deleted = WebhookStoreConformanceTests.delivery("ev-del", user: Self.janesPseudonym)
            deleted.eventType = "subscriber_deleted"
            deleted.payload = #"{"appUserID":"jane@example.com"}"#
            _ = try await webhooks.publish(WebhookBatch(
                deliveries: [deleted, WebhookStoreConformanceTests.delivery("ev-other", user: "bob")], firedAt: Self.day(1)))
            let written = try await webhooks.dueDeliveries(at: Self.day(2), limit: 10)
            #expect(written.count == 2)
            try await webhooks.recordAttempts(written.map { delivery in
                WebhookAttemptOutcome(
                    attempt: WebhookAttempt(deliveryID: delivery.id, attempt: 1, at: Self.day(2), status: 200, latencyMilliseconds: 3, error: nil),
                    endpointID: "e1", retryAt: nil, pauseUntil: nil)
            })
            let after = try await webhooks.deliveries(endpointID: "e1", appUserID: nil, status: .delivered, limit: 10)
            #expect(after.first { $0.eventType == "subscriber_deleted" }?.payload == WebhookDelivery.redactedPayload)
            #expect(after.first { $0.appUserID == "bob" }?.payload == #"{"id":"ev-other"}"#)
        }
    }
}
