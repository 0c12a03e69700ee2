import AppStoreModels
import EntitleCore
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// The operator's routes, over real HTTP: secret keys only.
@Suite("Admin end to end")
struct AdminEndToEndTests {
    static func day(_ n: Double) -> Date { ReferenceTime.day(n) }

    @Test("a grant entitles for its period and its revocation ends it; both are in the timeline", arguments: StorageEngine.databases)
    func grants(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let secret = ServerHarness.secretKey
            let refused = try await harness.post(client, "/v1/subscribers/vip/grants", key: harness.publicKey("vip"),
                                                 body: ServerHarness.json(GrantRequest(entitlementID: "family")), expect: .forbidden)
            #expect(ServerHarness.errorCode(refused) == "auth.forbidden")
            let granted = try ServerHarness.decode(SubscriberResponse.self, try await harness.post(
                client, "/v1/subscribers/vip/grants", key: secret, body: ServerHarness.json(GrantRequest(entitlementID: "family", reason: "support case 42"))))
            #expect(granted.entitlements.first { $0.id == "family" }?.state == "granted")

            let timeline = try ServerHarness.decode([TimelineEvent].self, try await harness.get(client, "/v1/subscribers/vip/events", key: secret))
            #expect(timeline.map(\.kind) == ["grant/family"])
            let grantID = try #require(try await harness.store.projection(appUserID: "vip")?.grants.first?.id)
            harness.clock.set(Self.day(2))
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(secret)"
            let revoked = try await client.execute(uri: "/v1/subscribers/vip/grants/\(grantID)", method: .delete, headers: headers)
            #expect(revoked.status == .ok)
            #expect(try ServerHarness.decode(SubscriberResponse.self, revoked).entitlements.first { $0.id == "family" }?.isActive == false)
            let unknown = try await harness.post(client, "/v1/subscribers/vip/grants", key: secret,
                                                 body: ServerHarness.json(GrantRequest(entitlementID: "platinum")), expect: .badRequest)
            #expect(ServerHarness.errorCode(unknown) == "request.invalid")
        }
    }

    @Test("an override lifts limits until removed", arguments: StorageEngine.databases)
    func overrides(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine, example: "Epilogue", bundleID: "com.epilogue.app") { harness, client in
            let secret = ServerHarness.secretKey
            for key in ["a", "b"] {
                try await harness.post(client, "/v1/subscribers/dev/usage", key: secret, body: ServerHarness.json(RecordUsageRequest(feature: "conversations", idempotencyKey: key)))
            }
            try await harness.post(client, "/v1/subscribers/dev/usage", key: secret,
                                   body: ServerHarness.json(RecordUsageRequest(feature: "conversations", idempotencyKey: "c")), expect: .conflict)
            let past = try await harness.post(
                client, "/v1/subscribers/dev/overrides", key: secret, body: ServerHarness.json(OverrideRequest(endsAt: harness.clock.now, reason: "too late")),
                expect: .badRequest)
            #expect(ServerHarness.errorCode(past) == "request.invalid")
            try await harness.post(client, "/v1/subscribers/dev/overrides", key: secret, body: ServerHarness.json(OverrideRequest(reason: "debug bypass")))
            try await harness.post(client, "/v1/subscribers/dev/usage", key: secret, body: ServerHarness.json(RecordUsageRequest(feature: "conversations", idempotencyKey: "c")))
            let overrideID = try #require(try await harness.store.projection(appUserID: "dev")?.overrides.first?.id)
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(secret)"
            #expect(try await client.execute(uri: "/v1/subscribers/dev/overrides/\(overrideID)", method: .delete, headers: headers).status == .ok)
            try await harness.post(client, "/v1/subscribers/dev/usage", key: secret,
                                   body: ServerHarness.json(RecordUsageRequest(feature: "conversations", idempotencyKey: "d")), expect: .conflict)
        }
    }

    @Test("seed 002: members of a premium household share its entitlements until removed", arguments: StorageEngine.databases)
    func households(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine, example: "PantryPal", bundleID: "me.subasically.pantrypal") { harness, client in
            let premium = harness.apple.subscription("com.pantrypal.premium.monthly", original: "h-1", purchase: Self.day(0), expires: Self.day(31))
            try await harness.submit(client, "household-9", premium)
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(ServerHarness.secretKey)"
            let joined = try await client.execute(uri: "/v1/subscribers/household-9/members/cook-1", method: .put, headers: headers)
            #expect(joined.status == .ok)
            let member = try await harness.subscriber(client, "cook-1")
            #expect(member.entitlements.first { $0.id == "premium" }?.source == "household")
            let items = try ServerHarness.decode(AccessResponse.self, try await harness.get(
                client, "/v1/subscribers/cook-1/access/items?usage=200", key: harness.publicKey("cook-1")))
            #expect(items.outcome == "allowed")
            harness.clock.set(Self.day(2))
            #expect(try await client.execute(uri: "/v1/subscribers/household-9/members/cook-1", method: .delete, headers: headers).status == .ok)
            #expect(try await harness.subscriber(client, "cook-1").entitlements.filter(\.isActive).isEmpty)
        }
    }

    @Test("seed 004's rollback plan: open access grants everyone the entitlements until T, and can be turned off", arguments: StorageEngine.databases)
    func openAccess(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let secret = ServerHarness.secretKey
            #expect(try ServerHarness.decode(OpenAccessResponse.self, try await harness.get(client, "/v1/open-access", key: secret)).isOn == false)
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(secret)"
            headers[.contentType] = "application/json"
            let body = ByteBuffer(bytes: try WireJSON.encoder.encode(OpenAccessRequest(endsAt: Self.day(7), reason: "store outage")))
            let set = try await client.execute(uri: "/v1/open-access", method: .put, headers: headers, body: body)
            #expect(set.status == .ok)
            #expect(try ServerHarness.decode(OpenAccessResponse.self, set).endsAt == Self.day(7))

            let anyone = try await harness.subscriber(client, "brand-new")
            #expect(anyone.entitlements.filter(\.isActive).map(\.id) == ["family", "individual"])
            #expect(anyone.entitlements.allSatisfy { $0.source == "open_access" && $0.expiresAt == Self.day(7) })
            harness.clock.set(Self.day(7))
            #expect(try await harness.subscriber(client, "brand-new").entitlements.filter(\.isActive).isEmpty)

            harness.clock.set(Self.day(8))
            let again = ByteBuffer(bytes: try WireJSON.encoder.encode(OpenAccessRequest(endsAt: Self.day(20), entitlementIDs: ["individual"])))
            #expect(try await client.execute(uri: "/v1/open-access", method: .put, headers: headers, body: again).status == .ok)
            #expect(try await harness.subscriber(client, "brand-new").entitlements.filter(\.isActive).map(\.id) == ["individual"])
            #expect(try await client.execute(uri: "/v1/open-access", method: .delete, headers: headers).status == .ok)
            #expect(try await harness.subscriber(client, "brand-new").entitlements.filter(\.isActive).isEmpty)
            try await harness.get(client, "/v1/open-access", key: harness.publicKey("brand-new"), expect: .forbidden)
        }
    }

    @Test("a purchase is looked up by originalTransactionId: held, then owned", arguments: StorageEngine.databases)
    func lookup(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let transaction = harness.apple.subscription("com.screentimerewards.family.monthly", original: "777", purchase: Self.day(0), expires: Self.day(31))
            try await harness.postNotification(client, harness.notification(.subscribed, transaction: transaction))
            let held = try ServerHarness.decode(PurchaseLookupResponse.self, try await harness.get(client, "/v1/purchases/777", key: ServerHarness.secretKey))
            #expect(held == PurchaseLookupResponse(originalTransactionID: "777", appUserID: nil, heldEvents: 1))
            try await harness.submit(client, "owner-1", transaction)
            let owned = try ServerHarness.decode(PurchaseLookupResponse.self, try await harness.get(client, "/v1/purchases/777", key: ServerHarness.secretKey))
            #expect(owned == PurchaseLookupResponse(originalTransactionID: "777", appUserID: "owner-1", heldEvents: 0))
            let forbidden = try await harness.get(client, "/v1/purchases/777", key: harness.publicKey("owner-1"), expect: .forbidden)
            #expect(ServerHarness.errorCode(forbidden) == "auth.forbidden")
        }
    }
}
