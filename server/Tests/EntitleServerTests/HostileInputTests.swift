import AppStoreModels
import EntitleAnalytics
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

/// Inputs that crashed the server before their values were checked at the edge, each sent as an
/// attacker would; after each, the server still answers.
@Suite("Hostile input")
struct HostileInputTests {
    @Test("a notification signed by nobody, dated year 10000, is refused with verification.valueOutOfRange; the server keeps answering")
    func forgedNotificationFromTheFuture() async throws {
        try await ServerHarness.run { harness, client in
            let attacker = try TestPKI()
            let root = TestPKI.base64DER(attacker.root)
            let body = #"{"notificationType":"SUBSCRIBED","notificationUUID":"u","version":"2.0","signedDate":253402300800000,"data":{"bundleId":"com.screentimerewards","environment":"Sandbox","appAppleId":1234}}"#
            let forged = attacker.sign(payload: Data(body.utf8), header: ["alg": "ES256", "x5c": [root, root, root]])
            let refused = try await harness.postNotification(client, forged, expect: .badRequest)
            #expect(ServerHarness.errorCode(refused) == "verification.valueOutOfRange")
            // The same payload through the app's route, with a public key.
            let submitted = try await harness.submit(client, "anyone", signed: forged, expect: .badRequest)
            #expect(ServerHarness.errorCode(submitted) == "verification.valueOutOfRange")
            try await harness.get(client, "/health", key: nil)
            #expect(try await harness.store.eventCount() == 0)
        }
    }

    @Test("a trusted transaction expiring in year 10^305 is refused, nothing stored")
    func trustedExtremeDates() async throws {
        try await ServerHarness.run { harness, client in
            var transaction = harness.apple.subscription(
                "com.screentimerewards.family.monthly", original: "77", purchase: ReferenceTime.start, expires: ReferenceTime.day(31))
            transaction.expiresDate = Date(timeIntervalSince1970: 1e305)
            let refused = try await harness.submit(client, "alice", transaction, expect: .badRequest)
            #expect(ServerHarness.errorCode(refused) == "verification.valueOutOfRange")
            #expect(try await harness.store.eventCount() == 0)
        }
    }

    @Test(
        "access with a usage past the range is refused with request.invalid, after a use that made the sum overflow before",
        arguments: ["9223372036854775807", "1000001", "-1", "abc", "1.5"])
    func usageOutOfRange(usage: String) async throws {
        try await ServerHarness.run(example: "Epilogue", bundleID: "com.epilogue.app") { harness, client in
            let key = harness.publicKey("reader")
            try await harness.post(
                client, "/v1/subscribers/reader/usage", key: key, body: ServerHarness.json(RecordUsageRequest(feature: "conversations", idempotencyKey: "one")))
            let refused = try await harness.get(client, "/v1/subscribers/reader/access/conversations?usage=\(usage)", key: key, expect: .badRequest)
            #expect(ServerHarness.errorCode(refused) == "request.invalid")
            let allowed = try ServerHarness.decode(
                AccessResponse.self, try await harness.get(client, "/v1/subscribers/reader/access/conversations?usage=1", key: key))
            #expect(allowed.outcome == .allowed)
        }
    }

    @Test(
        "an event stored with an instant out of range (before the edge checked it) is set aside by analytics, which goes on; the operator sees why",
        arguments: StorageEngine.databases)
    func poisonEventSetAside(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            // A good purchase, through the API.
            let good = harness.apple.subscription(
                "com.screentimerewards.family.monthly", original: "500", purchase: ReferenceTime.start, expires: ReferenceTime.day(31))
            try await harness.submit(client, "good", good)
            // A poisoned one, written straight to the ledger as an older server would have stored it.
            var poisoned = harness.apple.subscription(
                "com.screentimerewards.family.monthly", original: "501", purchase: ReferenceTime.start, expires: ReferenceTime.day(31))
            poisoned.expiresDate = Date(timeIntervalSince1970: 1e305)
            poisoned.price = Int64.max
            let event = LedgerEvents.appTransaction(9, appUserID: "poisoned", poisoned)
            _ = try await harness.store.append(event)

            let overview = try await harness.get(client, "/v1/analytics/overview", key: ServerHarness.secretKey)
            let report = try ServerHarness.decode(AnalyticsReport.self, overview)
            #expect(report.current.activePaid == 1)
            let listed = try ServerHarness.decode(
                SetAsideEventsResponse.self, try await harness.get(client, "/v1/set-aside-events", key: ServerHarness.secretKey))
            #expect(listed.events.map(\.eventID) == [event.id.uuidString])
            #expect(listed.events.first?.consumer == "analytics")
            #expect(listed.events.first?.appUserID == "poisoned")
            #expect(listed.events.first?.reason.hasPrefix("transaction.expiresDate") == true)
            // Again: still answered, recorded once.
            try await harness.get(client, "/v1/analytics/overview", key: ServerHarness.secretKey)
            let again = try ServerHarness.decode(
                SetAsideEventsResponse.self, try await harness.get(client, "/v1/set-aside-events", key: ServerHarness.secretKey))
            #expect(again.events.count == 1)
            let metrics = String(buffer: try await harness.get(client, "/metrics", key: nil).body)
            #expect(metrics.contains(#"entitle_events_set_aside_total{consumer="analytics"} 1"#))
            // Only a secret key reads it.
            try await harness.get(client, "/v1/set-aside-events", key: harness.publicKey("good"), expect: .forbidden)
        }
    }

    @Test(
        "an admin date past 2200 (or before year 0) is refused with request.invalid before anything is written: grants, overrides, open access",
        arguments: ["9999-12-31T00:00:00Z", "2200-01-01T00:00:01Z"])
    func adminDatesOutOfRange(date: String) async throws {
        try await ServerHarness.run { harness, client in
            let grant = #"{"entitlementID":"family","endsAt":"\#(date)"}"#
            let start = #"{"entitlementID":"family","startsAt":"\#(date)"}"#
            for (uri, body, method) in [
                ("/v1/subscribers/alice/grants", grant, HTTPRequest.Method.post), ("/v1/subscribers/alice/grants", start, .post),
                ("/v1/subscribers/alice/overrides", #"{"endsAt":"\#(date)"}"#, .post), ("/v1/open-access", #"{"endsAt":"\#(date)"}"#, .put),
            ] {
                let response = try await client.execute(
                    uri: uri, method: method,
                    headers: [.authorization: "Bearer \(ServerHarness.secretKey)", .contentType: "application/json"], body: ByteBuffer(string: body))
                #expect(response.status == .badRequest, "\(uri) \(body)")
                #expect(ServerHarness.errorCode(response) == "request.invalid")
                #expect(String(buffer: response.body).contains("0000-01-01…2200-01-01"))
            }
            #expect(try await harness.store.eventCount() == 0)
        }
    }

    @Test("a poison event is set aside by the webhook publisher, which reports the events before and after it", arguments: StorageEngine.databases)
    func poisonEventSetAsideByWebhooks(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let service = harness.service()
            harness.clock.set(ReferenceTime.day(1))
            try await service.webhooks.webhookStore.addEndpoint(WebhookEndpoint(
                id: "we_poison", app: BundleID(harness.bundleID), url: "http://127.0.0.1:9/hooks", eventTypes: [], secrets: ["whsec_test_secret"],
                createdAt: ReferenceTime.start))
            let family = "com.screentimerewards.family.monthly"
            try await harness.submit(client, "before", harness.apple.subscription(family, original: "600", purchase: ReferenceTime.day(1), expires: ReferenceTime.day(31)))
            var poisoned = harness.apple.subscription(family, original: "601", purchase: ReferenceTime.day(1), expires: ReferenceTime.day(31))
            poisoned.expiresDate = Date(timeIntervalSince1970: 1e305)
            let event = LedgerEvents.appTransaction(19, appUserID: "poisoned", poisoned)
            _ = try await harness.store.append(event)
            try await harness.submit(client, "after", harness.apple.subscription(family, original: "602", purchase: ReferenceTime.day(1), expires: ReferenceTime.day(31)))

            _ = try await service.webhooks.publishWebhooks(holder: "test")
            for user: AppUserID in ["before", "after"] {
                #expect(try await !service.webhooks.webhookStore.deliveries(endpointID: nil, appUserID: user, status: nil, limit: 10).isEmpty, "\(user)")
            }
            #expect(try await service.webhooks.webhookStore.deliveries(endpointID: nil, appUserID: "poisoned", status: nil, limit: 10).isEmpty)
            let listed = try ServerHarness.decode(
                SetAsideEventsResponse.self, try await harness.get(client, "/v1/set-aside-events", key: ServerHarness.secretKey))
            #expect(listed.events.map(\.consumer) == ["webhooks"])
            #expect(listed.events.first?.eventID == event.id.uuidString)
            #expect(listed.events.first?.reason.hasPrefix("transaction.expiresDate") == true)
            // The cursor went past it: the next pass neither stops on it nor records it again.
            _ = try await service.webhooks.publishWebhooks(holder: "test")
            #expect(try await service.analytics.setAsideEvents(limit: 10).count == 1)
        }
    }
}
