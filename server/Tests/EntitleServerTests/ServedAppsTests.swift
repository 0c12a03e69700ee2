import AppStoreModels
import AppStoreVerification
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
import Testing

/// Two apps on one server and one database: ScreenTime Rewards (primary) and Epilogue.
@Suite("ServedApps")
struct ServedAppsTests {
    static let screenTime = "com.screentimerewards"
    static let epilogue = "com.epilogue.app"
    static let family = "com.screentimerewards.family.monthly"
    static let plus = "com.epilogue.plus.monthly"

    /// Runs a two-app server over `engine`, with a harness per app (sharing the PKI, clock and keys).
    static func run(
        engine: StorageEngine, epilogueAppKeys: Bool = true, _ body: @Sendable (_ screenTime: ServerHarness, _ epilogue: ServerHarness, any TestClientProtocol) async throws -> Void
    ) async throws {
        let pki = try TestPKI.shared()
        let clock = TestClock()
        let keys = try APIKeys(secretKeys: [ServerHarness.secretKey], publicKeySecret: "public-key-secret-for-tests")
        let authority = try TestAuthority.shared()
        try await engine.withStore { store in
            func served(_ bundleID: String, _ example: String) -> ServedApp {
                var catalog = Fixtures.exampleCatalog(example)
                if bundleID == epilogue { catalog.acceptsAppKeys = epilogueAppKeys }
                catalog.appAppleID = bundleID == epilogue ? 2222 : 1111
                return ServedApp(
                    bundleID: BundleID(bundleID), catalog: catalog,
                    verifiers: [SignedDataVerifier(
                        configuration: VerifierConfiguration(bundleID: bundleID, environment: .sandbox, appAppleID: 1234, rootCertificates: [pki.root]),
                        now: clock.reading)])
            }
            let app = try await buildApplication(
                configuration: ServerConfiguration(
                    http: HTTPConfiguration(host: "127.0.0.1", port: 0), ledger: .store(store),
                    apps: [served(screenTime, "ScreenTimeRewards"), served(epilogue, "Epilogue")], keys: keys, analyticsRefreshInterval: nil,
                    now: clock.reading, logger: Logger(label: "entitle.tests.server")))
            let harnesses = [(screenTime, "ScreenTimeRewards"), (epilogue, "Epilogue")].map { bundleID, example in
                ServerHarness(
                    pki: pki, apple: AppleFacts(bundleID: bundleID), clock: clock, store: store.forApp(BundleID(bundleID)), keys: keys, bundleID: bundleID,
                    authority: authority, catalog: Fixtures.exampleCatalog(example))
            }
            try await app.test(.live) { client in
                try await body(harnesses[0], harnesses[1], client)
            }
        }
    }

    @discardableResult
    static func request(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, app: String?, key: String, body: ByteBuffer = ByteBuffer()
    ) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(key)"
        headers[.contentType] = "application/json"
        if let app { headers[ServedApps.header] = app }
        return try await client.execute(uri: uri, method: method, headers: headers, body: body)
    }

    @Test("one webhook URL: each notification reaches the app its bundle ID names, and each app's data stays its own", arguments: StorageEngine.databases)
    func routedByBundleID(engine: StorageEngine) async throws {
        try await Self.run(engine: engine) { screenTime, epilogue, client in
            // The same app user ID and purchase IDs in both apps.
            let family = screenTime.apple.subscription(Self.family, original: "700", purchase: ReferenceTime.start, expires: ReferenceTime.day(31))
            let plus = epilogue.apple.subscription(Self.plus, original: "700", purchase: ReferenceTime.start, expires: ReferenceTime.day(31))
            try await screenTime.postNotification(client, screenTime.notification(.subscribed, transaction: family))
            try await epilogue.postNotification(client, epilogue.notification(.subscribed, transaction: plus))
            #expect(try await screenTime.store.heldEventCount() == 1)
            #expect(try await epilogue.store.heldEventCount() == 1)

            let submitted = try await Self.request(
                client, .post, "/v1/subscribers/reader/transactions", app: Self.epilogue, key: ServerHarness.secretKey,
                body: ServerHarness.json(SubmitTransactionRequest(signedTransaction: epilogue.pki.sign(plus))))
            #expect(submitted.status == .ok)
            let reader = try ServerHarness.decode(SubscriberResponse.self, submitted)
            #expect(reader.entitlements.filter(\.isActive).map(\.id) == ["plus"])
            #expect(try await screenTime.store.projection(appUserID: "reader") == nil)
            #expect(try await screenTime.store.heldEventCount() == 1, "ScreenTime's purchase 700 is still its own, unowned")

            // A notification naming an app this server doesn't serve is refused, as before.
            let other = AppleFacts(bundleID: "com.other.app").subscription("x", original: "701", purchase: ReferenceTime.start, expires: ReferenceTime.day(31))
            let refused = try await screenTime.postNotification(client, screenTime.notification(.subscribed, transaction: other, bundleID: "com.other.app"), expect: .badRequest)
            #expect(ServerHarness.errorCode(refused) == "verification.bundleID")
        }
    }

    @Test("keyed routes name their app: the only one needs no header; with two, a missing or unknown one is 400 request.unknownApp", arguments: StorageEngine.databases)
    func appSelection(engine: StorageEngine) async throws {
        try await Self.run(engine: engine) { _, _, client in
            let missing = try await Self.request(client, .get, "/v1/subscribers/reader", app: nil, key: ServerHarness.secretKey)
            #expect(missing.status == .badRequest)
            #expect(ServerHarness.errorCode(missing) == "request.unknownApp")
            let unknown = try await Self.request(client, .get, "/v1/open-access", app: "com.other.app", key: ServerHarness.secretKey)
            #expect(ServerHarness.errorCode(unknown) == "request.unknownApp")
            let named = try await Self.request(client, .get, "/v1/subscribers/reader", app: Self.epilogue, key: ServerHarness.secretKey)
            #expect(named.status == .ok)
        }
    }

    @Test("a public key reaches its subscriber in its own app only", arguments: StorageEngine.databases)
    func publicKeysPerApp(engine: StorageEngine) async throws {
        try await Self.run(engine: engine) { screenTime, _, client in
            let primaryKey = screenTime.publicKey("reader")
            let epilogueKey = try #require(screenTime.keys.publicKey(for: "reader", app: BundleID(Self.epilogue)))
            #expect(primaryKey != epilogueKey)
            #expect(try await Self.request(client, .get, "/v1/subscribers/reader", app: Self.screenTime, key: primaryKey).status == .ok)
            #expect(try await Self.request(client, .get, "/v1/subscribers/reader", app: Self.epilogue, key: epilogueKey).status == .ok)
            #expect(try await Self.request(client, .get, "/v1/subscribers/reader", app: Self.epilogue, key: primaryKey).status == .forbidden)
            #expect(try await Self.request(client, .get, "/v1/subscribers/reader", app: Self.screenTime, key: epilogueKey).status == .forbidden)
            let minted = try await Self.request(client, .post, "/v1/subscribers/reader/keys", app: Self.epilogue, key: ServerHarness.secretKey)
            #expect(String(buffer: minted.body).contains(epilogueKey))
        }
    }

    @Test("Apple's real-time retention request names no bundle: it reaches the app whose App Apple ID it carries, the primary otherwise")
    func retentionRouting() async throws {
        try await Self.run(engine: .sqlite) { _, epilogue, client in
            func ask(appAppleID: Int64, product: String) async throws -> TestResponse {
                let signed = epilogue.pki.sign(DecodedRealtimeRequestBody(
                    originalTransactionId: "9000", appAppleId: appAppleID, productId: product, userLocale: "en-US", requestIdentifier: UUID(),
                    signedDate: epilogue.clock.now, environment: .sandbox))
                return try await client.execute(
                    uri: "/v1/app-store/retention-messages", method: .post, headers: [.contentType: "application/json"],
                    body: ServerHarness.json(RealtimeRequestBody(signedPayload: signed)))
            }
            // Epilogue's rules: a monthly reader is offered the annual plan.
            let switched = try ServerHarness.decode(RealtimeResponseBody.self, try await ask(appAppleID: 2222, product: Self.plus))
            #expect(switched.alternateProduct?.productId == "com.epilogue.plus.annual")
            // ScreenTime Rewards declares no rules: an empty answer.
            let none = try await ask(appAppleID: 1111, product: Self.family)
            let empty = try ServerHarness.decode(RealtimeResponseBody.self, none)
            #expect(none.status == .ok && empty == RealtimeResponseBody())
            // An unknown App Apple ID goes to the primary app, which doesn't sell Epilogue's product.
            let unknown = try await ask(appAppleID: 9, product: Self.plus)
            #expect(unknown.status == .badRequest && ServerHarness.errorCode(unknown) == "purchase.unknownProduct")
        }
    }
}
