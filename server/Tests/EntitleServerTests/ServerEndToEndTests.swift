import AppStoreModels
import AppStoreVerification
import Crypto
import EntitleCore
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import LocalAppStore
import Logging
import NIOCore
import PostgresNIO
import Testing

/// The server over real HTTP on loopback, from Apple's signed data to the subscriber API.
@Suite("Server end to end")
struct ServerEndToEndTests {
    static let family = "com.screentimerewards.family.monthly"
    static let individual = "com.screentimerewards.individual.monthly"
    static func day(_ n: Double) -> Date { ReferenceTime.day(n) }

    @Test("/health answers without a key")
    func health() async throws {
        try await ServerHarness.run { harness, client in
            let response = try await harness.get(client, "/health", key: nil)
            #expect(String(buffer: response.body) == #"{"status":"ok"}"#)
        }
    }

    @Test("/ready answers without a key once the ledger answers a read", arguments: StorageEngine.databases)
    func ready(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let response = try await harness.get(client, "/ready", key: nil)
            #expect(String(buffer: response.body) == #"{"status":"ready"}"#)
        }
    }

    @Test("/ready answers 503 storage.unavailable with Retry-After once the ledger is closed; /health still answers")
    func readyWithoutLedger() async throws {
        try await ServerHarness.run { harness, client in
            await harness.store.close()
            let response = try await harness.get(client, "/ready", key: nil, expect: .serviceUnavailable)
            #expect(ServerHarness.errorCode(response) == "storage.unavailable")
            #expect(response.headers[.retryAfter] == "5")
            _ = try await harness.get(client, "/health", key: nil)
        }
    }

    static func ready(_ client: any TestClientProtocol) async throws -> TestResponse {
        try await client.execute(uri: "/ready", method: .get, headers: [:])
    }

    /// Runs `sql` on the test cluster's own database, as its administrator.
    static func admin(_ sql: String) async throws {
        try await StorageEngine.withClient(try StorageEngine.testClusterConfiguration()) { admin in
            try await admin.query(PostgresQuery(unsafeSQL: sql))
        }
    }

    @Test("PostgreSQL: /ready answers 503 while the database refuses connections, and 200 again once it accepts them")
    func readyThroughPostgresOutage() async throws {
        try await StorageEngine.withPostgresDatabaseConfiguration { database in
            let name = database.database ?? ""
            try await buildApplication(configuration: try ServerHarness.configuration(opening: .postgres(database))).test(.live) { client in
                #expect(try await Self.ready(client).status == .ok)
                // Every backend of the database ended (waiting up to 5 s for each to exit), and no new one let in.
                try await Self.admin("ALTER DATABASE \(name) ALLOW_CONNECTIONS false")
                try await Self.admin("SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = '\(name)'")
                // The first answer may come from a connection whose end the server hasn't read yet.
                let first = try await Self.ready(client)
                #expect(first.status == .serviceUnavailable)
                #expect(["storage.unavailable", "storage.queryFailed"].contains(ServerHarness.errorCode(first)))
                let refused = try await Self.ready(client)
                #expect(refused.status == .serviceUnavailable)
                #expect(ServerHarness.errorCode(refused) == "storage.unavailable")
                #expect(refused.headers[.retryAfter] == "5")
                #expect(try await client.execute(uri: "/health", method: .get, headers: [:]).status == .ok)
                try await Self.admin("ALTER DATABASE \(name) ALLOW_CONNECTIONS true")
                let back = try await Self.ready(client)
                #expect(back.status == .ok, "\(String(buffer: back.body))")
            }
        }
    }

    @Test("a notification is stored once and acknowledged each time it is delivered", arguments: StorageEngine.databases)
    func webhookIdempotent(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let transaction = harness.apple.subscription(Self.family, original: "500", purchase: Self.day(0), expires: Self.day(31))
            let signed = harness.notification(.subscribed, subtype: .initialBuy, uuid: "6f1e2c1a-0000-4000-8000-000000000001", transaction: transaction)
            try await harness.postNotification(client, signed)
            try await harness.postNotification(client, signed)
            #expect(try await harness.store.eventCount() == 1)
            #expect(try await harness.store.heldEvents(originalTransactionID: "500").count == 1)
        }
    }

    @Test("notifications Apple didn't sign, or signed for another app, are refused with 4xx and a code", arguments: StorageEngine.databases)
    func webhookRejections(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let transaction = harness.apple.subscription(Self.family, original: "501", purchase: Self.day(0), expires: Self.day(31))
            let forger = try TestPKI()
            let forged = forger.sign(ResponseBodyV2DecodedPayload(
                notificationType: .subscribed, notificationUUID: UUID().uuidString,
                data: NotificationData(environment: .sandbox, appAppleId: 1234, bundleId: harness.bundleID), version: "2.0", signedDate: Self.day(0)))
            #expect(try await ServerHarness.errorCode(harness.postNotification(client, forged, expect: .badRequest)) == "verification.untrustedRoot")
            let otherApp = harness.notification(.subscribed, transaction: nil, bundleID: "com.other.app")
            #expect(try await ServerHarness.errorCode(harness.postNotification(client, otherApp, expect: .badRequest)) == "verification.bundleID")
            let parts = harness.notification(.didRenew, transaction: transaction).split(separator: ".")
            let tampered = "\(parts[0]).\(parts[1].dropLast(2))AA.\(parts[2])"
            let rejected = try await harness.postNotification(client, tampered, expect: .badRequest)
            #expect(ServerHarness.errorCode(rejected)?.hasPrefix("verification.") == true)
            let notJSON = try await harness.post(client, "/v1/app-store/notifications", body: ByteBuffer(string: "signedPayload=x"), expect: .badRequest)
            #expect(ServerHarness.errorCode(notJSON) == "request.invalid")
            #expect(try await harness.store.eventCount() == 0)
        }
    }

    @Test("a notification before the app's transaction is applied when the app submits it", arguments: StorageEngine.databases)
    func notificationBeforeTransaction(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let transaction = harness.apple.subscription(Self.family, original: "502", purchase: Self.day(0), expires: Self.day(31))
            let renewal = harness.apple.renewal(original: "502", product: Self.family, autoRenew: .off, signed: Self.day(1))
            try await harness.postNotification(client, harness.notification(.didChangeRenewalStatus, subtype: .autoRenewDisabled, transaction: transaction, renewal: renewal))
            try await harness.submit(client, "parent-1", transaction)
            let subscriber = try await harness.subscriber(client, "parent-1")
            #expect(subscriber.entitlements.first { $0.id == "family" }?.state == "active_not_renewing")
            #expect(subscriber.subscriptions.first?.willRenew == false)
            #expect(subscriber.serverTime == ReferenceTime.start)
        }
    }

    @Test("a refund revokes at once and REFUND_REVERSED restores", arguments: StorageEngine.databases)
    func refundAndReversal(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let purchase = harness.apple.subscription(Self.family, original: "503", id: "503-1", purchase: Self.day(0), expires: Self.day(31))
            try await harness.submit(client, "parent-2", purchase)
            harness.clock.set(Self.day(5))
            var refunded = purchase
            refunded.revocationDate = Self.day(5)
            refunded.revocationReason = .other
            refunded.signedDate = Self.day(5)
            try await harness.postNotification(client, harness.notification(.refund, transaction: refunded))
            #expect(try await harness.subscriber(client, "parent-2").entitlements.first?.state == "revoked")
            var reinstated = purchase
            reinstated.signedDate = Self.day(6)
            harness.clock.set(Self.day(6))
            try await harness.postNotification(client, harness.notification(.refundReversed, transaction: reinstated))
            #expect(try await harness.subscriber(client, "parent-2").entitlements.first?.state == "active")
        }
    }

    @Test("the app's re-signed version of a transaction (refunded) replaces the one it submitted before; an older one changes nothing", arguments: StorageEngine.databases)
    func updatedTransactionFromTheApp(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let purchase = harness.apple.subscription(Self.family, original: "504", id: "504-1", purchase: Self.day(0), expires: Self.day(31))
            try await harness.submit(client, "parent-3", purchase)
            // The same JWS again is a duplicate: one event.
            let signed = harness.pki.sign(purchase)
            try await harness.submit(client, "parent-3", signed: signed)
            try await harness.submit(client, "parent-3", signed: signed)
            #expect(try await harness.store.events(appUserID: "parent-3").count == 1)
            // StoreKit hands the app the same transactionId, re-signed with the refund; no notification arrives.
            harness.clock.set(Self.day(5))
            var refunded = purchase
            refunded.revocationDate = Self.day(5)
            refunded.revocationReason = .other
            refunded.signedDate = Self.day(5)
            try await harness.submit(client, "parent-3", refunded)
            #expect(try await harness.subscriber(client, "parent-3").entitlements.first?.state == "revoked")
            #expect(try await harness.store.events(appUserID: "parent-3").count == 2)
            // An older signed version arriving late changes nothing: the most recently signed wins.
            try await harness.submit(client, "parent-3", purchase)
            #expect(try await harness.subscriber(client, "parent-3").entitlements.first?.state == "revoked")
        }
    }

    @Test("billing grace entitles with a warning; billing retry does not", arguments: StorageEngine.databases)
    func graceAndRetry(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let purchase = harness.apple.subscription(Self.individual, original: "504", purchase: Self.day(0), expires: Self.day(31))
            try await harness.submit(client, "parent-3", purchase)
            let graceRenewal = harness.apple.renewal(original: "504", product: Self.individual, signed: Self.day(31), expirationIntent: .billingError,
                                                     billingRetry: true, graceEnds: Self.day(37))
            try await harness.postNotification(client, harness.notification(.didFailToRenew, subtype: .gracePeriod, transaction: purchase, renewal: graceRenewal))
            harness.clock.set(Self.day(33))
            let access = try ServerHarness.decode(AccessResponse.self, try await harness.get(
                client, "/v1/subscribers/parent-3/access/challenges.create", key: harness.publicKey("parent-3")))
            #expect(access.outcome == "allowed_with_warning")
            #expect(access.reason?.code == "billing_issue")
            #expect(access.paywall == "update_payment")
            harness.clock.set(Self.day(38))
            let subscriber = try await harness.subscriber(client, "parent-3")
            #expect(subscriber.entitlements.first { $0.source == "purchase" }?.state == "billing_retry")
            #expect(subscriber.lapse?.reason == "billing_issue")
        }
    }

    @Test("an upgrade applies at once, a downgrade at renewal", arguments: StorageEngine.databases)
    func upgradeAndDowngrade(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            var individual = harness.apple.subscription(Self.individual, original: "505", id: "505-1", purchase: Self.day(0), expires: Self.day(31))
            try await harness.submit(client, "parent-4", individual)
            harness.clock.set(Self.day(10))
            individual.isUpgraded = true
            individual.revocationDate = Self.day(10)
            individual.signedDate = Self.day(10)
            let family = harness.apple.subscription(Self.family, original: "505", id: "505-2", purchase: Self.day(10), expires: Self.day(41))
            try await harness.postNotification(client, harness.notification(.didChangeRenewalPref, subtype: .upgrade, transaction: family))
            try await harness.postNotification(client, harness.notification(.didChangeRenewalPref, subtype: .upgrade, transaction: individual))
            #expect(try await harness.subscriber(client, "parent-4").entitlements.filter(\.isActive).map(\.id) == ["family"])

            let downgrade = harness.apple.renewal(original: "505", product: Self.family, autoRenewProduct: Self.individual, signed: Self.day(20))
            try await harness.postNotification(client, harness.notification(.didChangeRenewalPref, subtype: .downgrade, transaction: family, renewal: downgrade))
            harness.clock.set(Self.day(25))
            let before = try await harness.subscriber(client, "parent-4")
            #expect(before.entitlements.filter(\.isActive).map(\.id) == ["family"])
            #expect(before.entitlements.first { $0.id == "family" }?.renewsToProductID == Self.individual)
            let renewed = harness.apple.subscription(Self.individual, original: "505", id: "505-3", purchase: Self.day(41), expires: Self.day(72), reason: .renewal)
            try await harness.postNotification(client, harness.notification(.didRenew, transaction: renewed,
                                                                             renewal: harness.apple.renewal(original: "505", product: Self.individual, signed: Self.day(41))))
            harness.clock.set(Self.day(42))
            #expect(try await harness.subscriber(client, "parent-4").entitlements.filter(\.isActive).map(\.id) == ["individual"])
        }
    }

    @Test("Ask to Buy: the app's pending purchase shows until the approved transaction; a decline ends it; an unknown product is refused", arguments: StorageEngine.databases)
    func askToBuy(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let key = harness.publicKey("kid-1")
            harness.clock.set(Self.day(1))
            let pending = try ServerHarness.decode(SubscriberResponse.self, try await harness.post(
                client, "/v1/subscribers/kid-1/pending-purchases", key: key, body: ServerHarness.json(PendingPurchaseRequest(productID: Self.family))))
            #expect(pending.pendingPurchases == [PendingPurchaseInfo(productID: Self.family, requestedAt: Self.day(1), expiresAt: Self.day(2))])
            let family = try #require(pending.entitlements.first { $0.id == "family" })
            #expect(family.state == .pending && family.source == .pendingPurchase && !family.isActive)

            harness.clock.set(Self.day(1).addingTimeInterval(3600))
            let approved = harness.apple.subscription(Self.family, original: "808", purchase: Self.day(1).addingTimeInterval(3600), expires: Self.day(32))
            try await harness.submit(client, "kid-1", approved)
            let after = try await harness.subscriber(client, "kid-1")
            #expect(after.pendingPurchases.isEmpty)
            #expect(after.entitlements.first { $0.id == "family" }?.state == .active)

            try await harness.post(client, "/v1/subscribers/kid-2/pending-purchases", key: harness.publicKey("kid-2"),
                                   body: ServerHarness.json(PendingPurchaseRequest(productID: Self.individual)))
            harness.clock.set(Self.day(1).addingTimeInterval(7200))
            let declined = try ServerHarness.decode(SubscriberResponse.self, try await harness.post(
                client, "/v1/subscribers/kid-2/pending-purchases/\(Self.individual)/decline", key: harness.publicKey("kid-2"), body: ByteBuffer()))
            #expect(declined.pendingPurchases.isEmpty)
            #expect(!declined.entitlements.contains { $0.state == .pending })

            let unknown = try await harness.post(client, "/v1/subscribers/kid-1/pending-purchases", key: key,
                                                 body: ServerHarness.json(PendingPurchaseRequest(productID: "com.other.app.product")), expect: .badRequest)
            #expect(ServerHarness.errorCode(unknown) == "purchase.unknownProduct")
            let other = try await harness.post(client, "/v1/subscribers/kid-2/pending-purchases", key: key,
                                               body: ServerHarness.json(PendingPurchaseRequest(productID: Self.family)), expect: .forbidden)
            #expect(ServerHarness.errorCode(other) == "auth.forbidden")
        }
    }

    @Test("crossgrades from the local App Store: the same duration applies at once, another duration at the renewal", arguments: StorageEngine.databases)
    func crossgrades(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine, example: "Crossgrades") { harness, client in
            var store = harness.localStore()
            let original = try await harness.buy(client, &store, "screentime.1child.monthly", as: "parent-x", at: Self.day(0)).originalTransactionID
            harness.clock.set(Self.day(10))
            try await harness.deliver(client, store.changeProduct(original, to: "screentime.1child.monthly.classic", at: Self.day(10)))
            let across = try await harness.subscriber(client, "parent-x")
            #expect(across.subscriptions.first?.productID == "screentime.1child.monthly.classic")
            #expect(across.subscriptions.first?.state == .active)
            #expect(across.subscriptions.first?.renewalChange == nil)
            #expect(across.entitlements.filter(\.isActive).map(\.id) == ["one_child"])

            harness.clock.set(Self.day(15))
            try await harness.deliver(client, store.changeProduct(original, to: "screentime.1child.yearly", at: Self.day(15)))
            let waiting = try await harness.subscriber(client, "parent-x")
            #expect(waiting.subscriptions.first?.productID == "screentime.1child.monthly.classic")
            #expect(waiting.subscriptions.first?.renewsToProductID == "screentime.1child.yearly")
            #expect(waiting.subscriptions.first?.renewalChange == "crossgrade")

            try await harness.deliver(client, store.renew(original))
            harness.clock.set(Self.day(45))
            let renewed = try await harness.subscriber(client, "parent-x")
            #expect(renewed.subscriptions.first?.productID == "screentime.1child.yearly")
            #expect(renewed.subscriptions.first?.renewalChange == nil)
        }
    }

    @Test("subscriber answers are signed (Ed25519 over the body) with the key GET /v1/signing-key publishes; any change breaks the signature")
    func signedAnswers() async throws {
        let signer = CustomerInfoSigner(key: .init())
        try await ServerHarness.run(signer: signer) { harness, client in
            let published = String(buffer: try await harness.get(client, "/v1/signing-key", key: nil).body)
            #expect(published.contains(signer.publicKey))
            let publicKey = try Curve25519.Signing.PublicKey(rawRepresentation: try #require(Base64URL.decode(signer.publicKey)))
            for response in [
                try await harness.get(client, "/v1/subscribers/parent-1", key: harness.publicKey("parent-1")),
                try await harness.post(client, "/v1/subscribers/parent-1/trial", key: harness.publicKey("parent-1"), body: ByteBuffer()),
            ] {
                let header = try #require(response.headers[HTTPField.Name(CustomerInfoSigner.header)!])
                #expect(header.hasPrefix("ed25519="))
                let signature = try #require(Base64URL.decode(String(header.dropFirst("ed25519=".count))))
                let body = Data(response.body.readableBytesView)
                #expect(publicKey.isValidSignature(signature, for: body))
                var tampered = body
                tampered[tampered.count / 2] ^= 0x01
                #expect(!publicKey.isValidSignature(signature, for: tampered))
            }
        }
    }

    @Test("a family-shared purchase entitles the family member", arguments: StorageEngine.databases)
    func familyShared(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let shared = harness.apple.subscription(Self.family, original: "506", purchase: Self.day(0), expires: Self.day(31), ownership: .familyShared)
            try await harness.submit(client, "member-1", shared)
            let subscriber = try await harness.subscriber(client, "member-1")
            #expect(subscriber.entitlements.first?.isActive == true)
            #expect(subscriber.entitlements.first?.isFamilyShared == true)
        }
    }

    @Test("random permutations and duplications of a subscription's notifications end in the in-order state", arguments: StorageEngine.databases, [1, 2, 3] as [UInt64])
    func permutations(engine: StorageEngine, seed: UInt64) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            var notifications: [String] = []
            for period in 0..<6 {
                let transaction = harness.apple.subscription(Self.family, original: "600", id: "600-\(period)", purchase: Self.day(Double(period) * 30),
                                                             expires: Self.day(Double(period + 1) * 30), reason: period == 0 ? .purchase : .renewal)
                let renewal = harness.apple.renewal(original: "600", product: Self.family, autoRenew: period == 5 ? .off : .on, signed: Self.day(Double(period) * 30 + 1))
                notifications.append(harness.notification(period == 0 ? .subscribed : .didRenew, uuid: "00000000-0000-4000-8000-00000000060\(period)",
                                                          transaction: transaction, renewal: renewal))
            }
            let link = harness.apple.subscription(Self.family, original: "600", id: "600-0", purchase: Self.day(0), expires: Self.day(30))
            var generator = SeededGenerator(seed: seed)
            var delivery = notifications.shuffled(using: &generator)
            delivery += (0..<4).map { _ in notifications.randomElement(using: &generator)! }
            for signed in delivery.shuffled(using: &generator) { try await harness.postNotification(client, signed) }
            try await harness.submit(client, "parent-5", link)
            harness.clock.set(Self.day(170))
            let shuffled = try await harness.subscriber(client, "parent-5")

            let expected = SubscriberFacts.fold(appUserID: "parent-5", events: try await harness.store.events(appUserID: "parent-5"))
            #expect(try await harness.store.projection(appUserID: "parent-5") == expected)
            #expect(try await harness.store.eventCount() == 7)
            #expect(shuffled.subscriptions.first?.state == "active_not_renewing")
            #expect(shuffled.subscriptions.first?.expiresAt == Self.day(180))
            #expect(try await harness.store.rebuildProjections() == 1)
            #expect(try await harness.subscriber(client, "parent-5") == shuffled)
        }
    }

    @Test("keys: a public key reaches only its own subscriber; secret keys reach any; no key is 401", arguments: StorageEngine.databases)
    func authorization(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            try await harness.get(client, "/v1/subscribers/alice", key: harness.publicKey("alice"))
            let other = try await harness.get(client, "/v1/subscribers/bob", key: harness.publicKey("alice"), expect: .forbidden)
            #expect(ServerHarness.errorCode(other) == "auth.forbidden")
            try await harness.get(client, "/v1/subscribers/bob", key: ServerHarness.secretKey)
            #expect(try await ServerHarness.errorCode(harness.get(client, "/v1/subscribers/bob", key: nil, expect: .unauthorized)) == "auth.missingKey")
            #expect(try await ServerHarness.errorCode(harness.get(client, "/v1/subscribers/bob", key: "sk_wrong_key_0000000000", expect: .unauthorized)) == "auth.invalidKey")
            let mint = try await harness.post(client, "/v1/subscribers/carol/keys", key: harness.publicKey("carol"), body: ByteBuffer(), expect: .forbidden)
            #expect(ServerHarness.errorCode(mint) == "auth.forbidden")
            let minted = try await harness.post(client, "/v1/subscribers/carol/keys", key: ServerHarness.secretKey, body: ByteBuffer())
            #expect(try ServerHarness.decode([String: String].self, minted)["publicKey"] == harness.publicKey("carol"))
        }
    }

    @Test("oversized bodies are refused with 413, unknown routes with 404, both as JSON errors")
    func limits() async throws {
        try await ServerHarness.run { harness, client in
            let huge = ServerHarness.json(AppStoreNotificationRequest(signedPayload: String(repeating: "A", count: 300 * 1024)))
            let tooLarge = try await harness.post(client, "/v1/app-store/notifications", body: huge, expect: .contentTooLarge)
            let notFound = try await harness.get(client, "/v2/nothing", key: nil, expect: .notFound)
            #expect(ServerHarness.errorCode(tooLarge) == "request.bodyTooLarge")
            #expect(ServerHarness.errorCode(notFound) == "request.notFound")
        }
    }

    @Test("a method a known path doesn't answer is 405 with Allow; an unknown path stays 404")
    func methodNotAllowed() async throws {
        try await ServerHarness.run { harness, client in
            for (method, uri, allow) in [
                (HTTPRequest.Method.trace, "/health", "GET"), (.patch, "/v1/open-access", "DELETE, GET, PUT"),
                (.post, "/v1/subscribers/parent-1/events", "GET"), (.put, "/v1/app-store/notifications", "POST"),
            ] {
                var headers = HTTPFields()
                headers[.authorization] = "Bearer \(ServerHarness.secretKey)"
                let response = try await client.execute(uri: uri, method: method, headers: headers)
                #expect(response.status == .methodNotAllowed, "\(method) \(uri)")
                #expect(response.headers[.allow] == allow, "\(method) \(uri)")
                #expect(ServerHarness.errorCode(response) == "request.methodNotAllowed")
            }
            let unknown = try await client.execute(uri: "/v1/nothing/here", method: .trace)
            #expect(unknown.status == .notFound)
        }
    }

    @Test("a public key for an app user ID outside the limits is refused like every other route")
    func publicKeyValidatesTheID() async throws {
        try await ServerHarness.run { harness, client in
            let long = String(repeating: "0", count: 201)
            let response = try await harness.post(
                client, "/v1/subscribers/\(long)/keys", key: ServerHarness.secretKey, body: ByteBuffer(), expect: .badRequest)
            #expect(ServerHarness.errorCode(response) == "subscriber.invalidAppUserID")
        }
    }

    @Test("the app-managed trial starts once, and the subscriber response says when it ends", arguments: StorageEngine.databases)
    func trial(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            try await harness.post(client, "/v1/subscribers/parent-6/trial", key: harness.publicKey("parent-6"), body: ByteBuffer())
            harness.clock.set(Self.day(3))
            let again = try ServerHarness.decode(SubscriberResponse.self, try await harness.post(
                client, "/v1/subscribers/parent-6/trial", key: harness.publicKey("parent-6"), body: ByteBuffer()))
            #expect(again.appTrial.phase == "active")
            #expect(again.appTrial.startedAt == ReferenceTime.start)
            #expect(again.appTrial.endsAt == Self.day(30))
            #expect(again.entitlements.first { $0.id == "family" }?.state == "trial")
        }
    }

    @Test("usage is counted once per idempotency key and refused over the quota with its reset", arguments: StorageEngine.databases)
    func usageQuota(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine, example: "Epilogue", bundleID: "com.epilogue.app") { harness, client in
            let uri = "/v1/subscribers/reader-1/usage"
            let key = harness.publicKey("reader-1")
            for idempotencyKey in ["c1", "c2", "c2"] {
                try await harness.post(client, uri, key: key, body: ServerHarness.json(RecordUsageRequest(feature: "conversations", idempotencyKey: idempotencyKey)))
            }
            let refused = try await harness.post(client, uri, key: key, body: ServerHarness.json(RecordUsageRequest(feature: "conversations", idempotencyKey: "c3")), expect: .conflict)
            #expect(ServerHarness.errorCode(refused) == "usage.quotaExhausted")
            let subscriber = try await harness.subscriber(client, "reader-1")
            #expect(subscriber.quotas.first?.used == 2)
            #expect(subscriber.quotas.first?.remaining == 0)
            #expect(subscriber.quotas.first?.resetsAt == ReferenceTime.instant("2026-02-01T00:00:00Z"))
            let unknown = try await harness.post(client, uri, key: key, body: ServerHarness.json(RecordUsageRequest(feature: "teleport", idempotencyKey: "x")), expect: .badRequest)
            #expect(ServerHarness.errorCode(unknown) == "usage.unknownFeature")
        }
    }

    @Test("TC3: restoring onto a new install moves the purchase under the transfer policy, recorded on both timelines", arguments: StorageEngine.databases)
    func restoreTransfer(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine, restorePolicy: .transferToNewest) { harness, client in
            let purchase = harness.apple.subscription(Self.individual, original: "508", purchase: Self.day(0), expires: Self.day(31))
            try await harness.submit(client, "install-1", purchase)
            harness.clock.set(Self.day(3))
            try await harness.post(client, "/v1/subscribers/install-2/trial", key: harness.publicKey("install-2"), body: ByteBuffer())
            let restored = try ServerHarness.decode(SubscriberResponse.self, try await harness.submit(client, "install-2", purchase))
            #expect(restored.entitlements.filter(\.isActive).map(\.id) == ["individual"])
            #expect(restored.appTrial.phase == "superseded")
            #expect(try await harness.subscriber(client, "install-1").entitlements.filter(\.isActive).isEmpty)
            let timeline = try ServerHarness.decode([TimelineEvent].self, try await harness.get(client, "/v1/subscribers/install-1/events", key: ServerHarness.secretKey))
            #expect(timeline.map(\.kind).last == "purchase_transferred/install-1→install-2")
            #expect(try await harness.store.rebuildProjections() == 2)
            #expect(try await harness.subscriber(client, "install-2") == restored)
        }
    }

    @Test("restoring a purchase another subscriber owns is refused under the keep policy", arguments: StorageEngine.databases)
    func restoreKeep(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let purchase = harness.apple.subscription(Self.family, original: "507", purchase: Self.day(0), expires: Self.day(31))
            try await harness.submit(client, "install-1", purchase)
            let refused = try await harness.submit(client, "install-2", purchase, expect: .conflict)
            #expect(ServerHarness.errorCode(refused) == "purchase.ownedByAnotherSubscriber")
            #expect(try await harness.store.owner(originalTransactionID: "507") == "install-1")
        }
    }
}

@Suite("Server metrics")
struct ServerMetricsTests {
    @Test("/metrics exposes request durations by route template and notification outcomes, never paths or ids")
    func metrics() async throws {
        try await ServerHarness.run { harness, client in
            let transaction = harness.apple.subscription("com.screentimerewards.family.monthly", original: "880", purchase: ReferenceTime.start, expires: ReferenceTime.day(31))
            let signed = harness.notification(.subscribed, transaction: transaction)
            try await harness.postNotification(client, signed)
            try await harness.postNotification(client, signed)
            try await harness.get(client, "/v1/subscribers/secret-user-42", key: harness.publicKey("secret-user-42"))
            try await harness.get(client, "/v1/subscribers/secret-user-42", key: harness.publicKey("secret-user-42"))
            try await harness.get(client, "/v1/subscribers/secret-user-43", key: harness.publicKey("secret-user-42"), expect: .forbidden)
            let text = String(buffer: try await harness.get(client, "/metrics", key: nil).body)
            #expect(text.contains(#"entitle_notifications_total{outcome="appended"} 1"#))
            #expect(text.contains(#"entitle_notifications_total{outcome="duplicate"} 1"#))
            // Each route, method and status counts in its series, however often it was recorded.
            #expect(text.contains(#"http_server_request_duration_seconds_count{http_request_method="GET",http_route="/v1/subscribers/{appUserID}",http_response_status_code="200"} 2"#))
            #expect(text.contains(#"http_server_request_duration_seconds_count{http_request_method="GET",http_route="/v1/subscribers/{appUserID}",http_response_status_code="403"} 1"#))
            #expect(text.contains(#"http_server_request_duration_seconds_count{http_request_method="POST",http_route="/v1/app-store/notifications",http_response_status_code="200"} 2"#))
            #expect(!text.contains("secret-user-42"))
        }
    }

    @Test("/metrics exposes what an operator alerts on: refused verifications, appends, held events, the analytics backlog, a recompute under way, memory")
    func operatorMetrics() async throws {
        try await ServerHarness.run { harness, client in
            let transaction = harness.apple.subscription("com.screentimerewards.family.monthly", original: "881", purchase: ReferenceTime.start, expires: ReferenceTime.day(31))
            // No app has submitted this purchase: its notification is held.
            try await harness.postNotification(client, harness.notification(.subscribed, transaction: transaction))
            let forged = try TestPKI().sign(harness.apple.subscription("com.screentimerewards.family.monthly", original: "882", purchase: ReferenceTime.start, expires: ReferenceTime.day(31)))
            try await harness.submit(client, "parent-9", signed: forged, expect: .badRequest)
            let text = String(buffer: try await harness.get(client, "/metrics", key: nil).body)
            #expect(text.contains(#"entitle_verifications_refused_total{code="verification.untrustedRoot"} 1"#))
            #expect(text.contains(#"entitle_ledger_appends_total{source="app_store_notification",outcome="appended"} 1"#))
            #expect(text.contains(#"entitle_ledger_append_duration_seconds_count{source="app_store_notification"} 1"#))
            #expect(text.contains("entitle_ledger_held_events 1"))
            #expect(text.contains("entitle_analytics_pending_events 1"))
            #expect(text.contains("entitle_analytics_recomputing_apps 0"))
            #if os(Linux)
            // The process's memory, read at the scrape: resident, and the allocator's in use and free.
            for gauge in ["process_resident_memory_bytes", "entitle_heap_in_use_bytes", "entitle_heap_free_bytes"] {
                let value = text.split(separator: "\n").first { $0.hasPrefix(gauge + " ") }?.split(separator: " ").last.flatMap { Double($0) }
                #expect((value ?? 0) > 0, "\(gauge): \(String(describing: value))")
            }
            #endif

            // A recompute started and not finished shows until a report finishes it.
            try await harness.store.analyticsStore().startRecompute()
            #expect(String(buffer: try await harness.get(client, "/metrics", key: nil).body).contains("entitle_analytics_recomputing_apps 1"))
            _ = try await harness.get(client, "/v1/analytics/overview", key: ServerHarness.secretKey)
            #expect(String(buffer: try await harness.get(client, "/metrics", key: nil).body).contains("entitle_analytics_recomputing_apps 0"))
        }
    }

    @Test("/metrics shows the database's sessions: none left in use, how long each waited for its connection, the pool's size", arguments: StorageEngine.databases)
    func databaseSessionMetrics(engine: StorageEngine) async throws {
        let pki = try TestPKI()
        let clock = TestClock()
        let keys = try APIKeys(secretKeys: [ServerHarness.secretKey], publicKeySecret: "public-key-secret-for-tests")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-metrics-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let check: @Sendable (LedgerDatabase, Int) async throws -> Void = { database, capacity in
            let verifier = SignedDataVerifier(
                configuration: VerifierConfiguration(bundleID: "com.screentimerewards", environment: .sandbox, rootCertificates: [pki.root]),
                now: clock.reading)
            var configuration = ServerConfiguration(
                http: HTTPConfiguration(host: "127.0.0.1", port: 0), ledger: .database(database),
                catalog: Fixtures.exampleCatalog("ScreenTimeRewards"), verifiers: [verifier], keys: keys, analyticsRefreshInterval: nil,
                now: clock.reading, logger: Logger(label: "entitle.tests.server"))
            // No background work may hold a session when the test reads the gauges.
            configuration.webhookInterval = nil
            let app = try await buildApplication(configuration: configuration)
            // The harness only signs and calls here; the server under test has its own database.
            // Closed before the folder is removed (an open SQLite file could leave it behind).
            let scratch = try await SQLiteLedgerStore.open(path: folder.appendingPathComponent("scratch.sqlite").path)
            let harness = ServerHarness(
                pki: pki, apple: AppleFacts(bundleID: "com.screentimerewards"), clock: clock, store: scratch, keys: keys,
                bundleID: "com.screentimerewards", authority: try LocalCertificateAuthority.create(now: ReferenceTime.start),
                catalog: Fixtures.exampleCatalog("ScreenTimeRewards"))
            do {
                try await app.test(.live) { client in
                    let transaction = harness.apple.subscription("com.screentimerewards.family.monthly", original: "990", purchase: ReferenceTime.start, expires: ReferenceTime.day(31))
                    try await harness.submit(client, "parent-990", transaction)
                    try await harness.postNotification(client, harness.notification(.subscribed, transaction: transaction))
                    _ = try await harness.subscriber(client, "parent-990")
                    let text = String(buffer: try await harness.get(client, "/metrics", key: nil).body)
                    #expect(text.contains("entitle_database_max_sessions \(capacity)"))
                    #expect(text.contains(#"entitle_database_sessions{kind="write"} 0"#))
                    #expect(text.contains(#"entitle_database_sessions{kind="read"} 0"#))
                    let waits = text.split(separator: "\n").first { $0.hasPrefix(#"entitle_database_session_wait_seconds_count{kind="write"}"#) }
                    #expect((waits?.split(separator: " ").last).flatMap { Int($0) }.map { $0 >= 2 } == true, "\(waits ?? "no write waits")")
                }
            } catch {
                await scratch.close()
                throw error
            }
            await scratch.close()
        }
        switch engine {
        case .sqlite:
            try await check(.sqlite(path: folder.appendingPathComponent("entitle.sqlite").path), 2)
        case .postgres:
            try await StorageEngine.withPostgresDatabaseConfiguration { configuration in
                try await check(.postgres(configuration), configuration.options.maximumConnections)
            }
        case .memory:
            Issue.record("a memory ledger has no database: this test runs on StorageEngine.databases")
        }
    }
}
