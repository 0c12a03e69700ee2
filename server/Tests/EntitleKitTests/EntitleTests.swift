import AppStoreModels
import AppStoreVerification
import Crypto
import EntitleAPI
import EntitleCore
@testable import EntitleKit
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HummingbirdTesting
import Logging
import Testing

/// EntitleKit against the real server on loopback, over URLSession.
@Suite("Entitle")
struct EntitleTests {
    /// A transport that fails like a plane in flight.
    struct Offline: HTTPTransport {
        func send(_ request: APIRequest, to baseURL: URL, timeout: Duration) async throws(APIClientError) -> APIResponse {
            throw APIClientError(.network, "offline")
        }
    }

    /// URLSession with room for a loaded machine: the whole suite runs at once on two cores, where a
    /// request of 100 events can wait longer than an app's 30 s. What is tested is the answer, not its speed.
    struct Patient: HTTPTransport {
        let base = URLSessionTransport()
        func send(_ request: APIRequest, to baseURL: URL, timeout: Duration) async throws(APIClientError) -> APIResponse {
            try await base.send(request, to: baseURL, timeout: max(timeout, .seconds(300)))
        }
    }

    struct Server: Sendable {
        let url: URL
        let signer: CustomerInfoSigner
        let pki: TestPKI
        let clock: TestClock
        let apple: AppleFacts
        let secretKey = "sk_test_0123456789abcdef"

        func configuration(folder: URL, online: Bool = true, now: (@Sendable () -> Date)? = nil) -> EntitleConfiguration {
            EntitleConfiguration(
                serverURL: url, apiKey: secretKey, serverPublicKey: signer.publicKey, cacheFolder: folder,
                transport: online ? Patient() : Offline(), now: now ?? clock.reading)
        }

        /// The app's purchase reaches the server (as StoreKit's transaction, submitted).
        func purchase(_ product: String, for appUserID: String, original: String, expires: Date) async throws {
            let transaction = apple.subscription(product, original: original, purchase: clock.now, expires: expires)
            _ = try await SubscriberAPIClient(baseURL: url, key: secretKey).submit(appUserID, signedTransaction: pki.sign(transaction))
        }
    }

    static func run(
        example: String = "ScreenTimeRewards", bundleID: String = "com.screentimerewards", catalog: Catalog? = nil, _ body: @Sendable (Server) async throws -> Void) async throws {
        let pki = try TestPKI.shared()
        let clock = TestClock()
        let signer = CustomerInfoSigner(key: .init())
        let keys = try APIKeys(secretKeys: ["sk_test_0123456789abcdef"], publicKeySecret: "public-key-secret-for-tests")
        try await StorageEngine.sqlite.withStore { store in
            let verifier = SignedDataVerifier(
                configuration: VerifierConfiguration(bundleID: bundleID, environment: .sandbox, rootCertificates: [pki.root]), now: clock.reading)
            let app = try await buildApplication(
                configuration: ServerConfiguration(
                    http: HTTPConfiguration(host: "127.0.0.1", port: 0), ledger: .store(store), catalog: catalog ?? Fixtures.exampleCatalog(example),
                    verifiers: [verifier], keys: keys, analyticsRefreshInterval: nil, now: clock.reading, logger: Logger(label: "entitle.tests.kit"),
                    signer: signer))
            try await app.test(.live) { client in
                let port = try #require(client.port)
                try await body(Server(
                    url: try #require(URL(string: "http://127.0.0.1:\(port)")), signer: signer, pki: pki, clock: clock, apple: AppleFacts(bundleID: bundleID)))
            }
        }
    }

    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("entitlekit-\(UUID().uuidString)")
    }

    @Test("seed 004 TC6: subscribed, then offline, a new instance on the same cache allows access and says it is cached; online again it asks the server")
    func offlineAfterForceQuit() async throws {
        try await Self.run { server in
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try await server.purchase("com.screentimerewards.family.monthly", for: "parent-1", original: "k1", expires: ReferenceTime.day(31))
            let first = try Entitle(configuration: server.configuration(folder: folder), appUserID: "parent-1")
            let fetched = try await first.customerInfo(fetchPolicy: .fetchCurrent)
            #expect(fetched.source == .server && fetched.isActive("family", at: server.clock.now))

            server.clock.set(ReferenceTime.day(2))
            let relaunched = try Entitle(configuration: server.configuration(folder: folder, online: false), appUserID: "parent-1")
            let offline = try await relaunched.customerInfo(fetchPolicy: .fetchCurrent)
            #expect(offline.source == .cache)
            #expect(offline.isActive("family", at: server.clock.now))
            #expect(offline.age == ReferenceTime.day(2).timeIntervalSince(fetched.serverTime))

            let online = try Entitle(configuration: server.configuration(folder: folder), appUserID: "parent-1")
            #expect(try await online.customerInfo(fetchPolicy: .fetchCurrent).source == .server)
        }
    }

    @Test("a cached answer grants nothing past its entitlement's own expiry")
    func expiryHonoured() async throws {
        try await Self.run { server in
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try await server.purchase("com.screentimerewards.family.monthly", for: "parent-2", original: "k2", expires: ReferenceTime.day(3))
            let fetched = try await Entitle(configuration: server.configuration(folder: folder), appUserID: "parent-2").customerInfo(fetchPolicy: .fetchCurrent)
            #expect(fetched.isActive("family", at: ReferenceTime.day(1)))
            let later = ReferenceTime.day(5)
            let offline = try Entitle(configuration: server.configuration(folder: folder, online: false, now: { later }), appUserID: "parent-2")
            let cached = try await offline.customerInfo(fetchPolicy: .cacheOnly)
            #expect(!cached.isActive("family", at: later))
        }
    }

    @Test("a hand-edited cache file, or a device clock set back before the server's time, is not trusted", arguments: ["tampered", "clock"])
    func untrustedCache(_ case: String) async throws {
        try await Self.run { server in
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            server.clock.set(ReferenceTime.day(5))
            _ = try await Entitle(configuration: server.configuration(folder: folder), appUserID: "parent-3").customerInfo(fetchPolicy: .fetchCurrent)
            var now = server.clock.now
            if `case` == "tampered" {
                let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                let file = try #require(files.first { $0.lastPathComponent.hasPrefix("customer-info-") })
                var entry = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: String])
                let stored = try #require(entry["body"].flatMap { Data(base64Encoded: $0) })
                var body = String(decoding: stored, as: UTF8.self)
                body = body.replacingOccurrences(of: #""entitlements":[]"#, with: #""entitlements":[{"id":"family","isActive":true,"state":"active","source":"grant","isFamilyShared":false,"limits":{}}]"#)
                entry["body"] = Data(body.utf8).base64EncodedString()
                try JSONSerialization.data(withJSONObject: entry).write(to: file)
            } else {
                now = ReferenceTime.day(4)
            }
            let deviceNow = now
            let offline = try Entitle(configuration: server.configuration(folder: folder, online: false, now: { deviceNow }), appUserID: "parent-3")
            await #expect(throws: EntitleError.self) { try await offline.customerInfo(fetchPolicy: .cacheOnly) }
            let error = await #expect(throws: EntitleError.self) { try await offline.customerInfo(fetchPolicy: .cachedOrFetched) }
            #expect(error?.code == .noTrustedCustomerInfo)
        }
    }

    @Test("seed 001: 2 conversations a month; two uses made offline are sent later, exactly once")
    func offlineUsage() async throws {
        try await Self.run(example: "Epilogue", bundleID: "com.epilogue.app") { server in
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let offline = try Entitle(configuration: server.configuration(folder: folder, online: false), appUserID: "reader")
            #expect(try await offline.recordUsage("conversations", idempotencyKey: "c1") == .queued(pending: 1))
            #expect(try await offline.recordUsage("conversations", idempotencyKey: "c2") == .queued(pending: 2))
            #expect(await offline.pendingUsage == 2)

            let online = try Entitle(configuration: server.configuration(folder: folder), appUserID: "reader")
            try await online.flushUsage()
            try await online.flushUsage()
            #expect(await online.pendingUsage == 0)
            let info = try await online.customerInfo(fetchPolicy: .fetchCurrent)
            #expect(info.quotas.first { $0.feature == "conversations" }?.used == 2)
        }
    }

    @Test("anonymous until the user logs in: the anonymous ID is kept across launches, and logging in merges it")
    func anonymousThenLogIn() async throws {
        try await Self.run { server in
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let first = try Entitle(configuration: server.configuration(folder: folder))
            let anonymous = await first.appUserID
            #expect(anonymous.hasPrefix("$anon:"))
            #expect(try await Entitle(configuration: server.configuration(folder: folder)).appUserID == anonymous)
            _ = try await SubscriberAPIClient(baseURL: server.url, key: server.secretKey).startTrial(anonymous)
            let merged = try await first.logIn("parent-4")
            #expect(merged.appUserID == "parent-4" && merged.appTrial.startedAt != nil)
            #expect(await first.isAnonymous == false)
            try await first.logOut()
            let afterLogOut = await first.appUserID
            #expect(afterLogOut != anonymous && afterLogOut.hasPrefix("$anon:"))
        }
    }

    @Test("logIn(token:) with an app key that reaches anonymous users only: the server's key for the user is used, and kept across launches")
    func logInWithToken() async throws {
        let backend = P256.Signing.PrivateKey()
        try await Self.run(catalog: Self.askingForTokens(backend)) { server in
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let admin = SubscriberAPIClient(baseURL: server.url, key: server.secretKey)
            _ = try await admin.startTrial("parent-9")
            let appKey = try await Self.appKey(server)
            var configuration = server.configuration(folder: folder)
            configuration.apiKey = appKey
            let app = try Entitle(configuration: configuration)

            let withoutToken = await #expect(throws: EntitleError.self) { try await app.logIn("parent-9") }
            #expect(withoutToken?.serverCode == "auth.logInTokenRequired")
            let token = try LogInToken.sign(
                appUserID: "parent-9", app: "com.screentimerewards", issuedAt: server.clock.now, keyID: "backend", key: backend)
            let info = try await app.logIn(token: token, as: "parent-9")
            #expect(info.appUserID == "parent-9" && info.appTrial.startedAt != nil)
            // The next launch reaches parent-9 with the key the log-in returned, not the app key.
            let relaunched = try Entitle(configuration: configuration, appUserID: "parent-9")
            #expect(try await relaunched.customerInfo(fetchPolicy: .fetchCurrent).appUserID == "parent-9")
            // Signed out, the app key is back, and reaches parent-9 no more.
            try await relaunched.logOut()
            let stranger = try Entitle(configuration: configuration, appUserID: "parent-9")
            try await stranger.logOut()
            let refused = await #expect(throws: EntitleError.self) {
                _ = try await Entitle(configuration: configuration, appUserID: "parent-9").customerInfo(fetchPolicy: .fetchCurrent)
            }
            #expect(refused?.serverCode == "auth.logInTokenRequired")
        }
    }

    /// The example catalog, asking app keys for log-in tokens signed by `backend`.
    static func askingForTokens(_ backend: P256.Signing.PrivateKey) -> Catalog {
        var catalog = Fixtures.exampleCatalog("ScreenTimeRewards")
        catalog.logInTokens = LogInTokenPolicy(publicKeys: ["backend": Array(backend.publicKey.x963Representation)], requiredForAppKeys: true)
        return catalog
    }

    /// An app key, made with the secret key.
    static func appKey(_ server: Server) async throws -> String {
        let response = try await URLSessionTransport().send(
            APIRequest(
                method: "POST", path: "/v1/keys", headers: ["Authorization": "Bearer \(server.secretKey)", "Content-Type": "application/json"],
                body: try WireJSON.encoder.encode(CreateKeyRequest(kind: "app"))),
            to: server.url, timeout: .seconds(10))
        return try #require(try WireJSON.decoder.decode(KeyInfo.self, from: response.body).key)
    }

    @Test("an answer not signed with the configured key is refused, not cached")
    func wrongKey() async throws {
        try await Self.run { server in
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            var configuration = server.configuration(folder: folder)
            configuration.serverPublicKey = CustomerInfoSigner(key: .init()).publicKey
            let client = try Entitle(configuration: configuration, appUserID: "parent-5")
            let error = await #expect(throws: EntitleError.self) { try await client.customerInfo(fetchPolicy: .fetchCurrent) }
            #expect(error?.code == .unsignedAnswer)
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix("customer-info-") }.isEmpty)
        }
    }

    @Test("access offline: features, limits and quotas answered from the cached decisions for the period that contains now")
    func offlineAccess() async throws {
        try await Self.run { server in
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try await server.purchase("com.screentimerewards.family.monthly", for: "parent-6", original: "k6", expires: ReferenceTime.day(3))
            _ = try await Entitle(configuration: server.configuration(folder: folder), appUserID: "parent-6").customerInfo(fetchPolicy: .fetchCurrent)

            let day1 = ReferenceTime.day(1)
            let offline = try Entitle(configuration: server.configuration(folder: folder, online: false, now: { day1 }), appUserID: "parent-6")
            #expect(try await offline.access("analytics.advanced").outcome == .allowed)
            #expect(try await offline.access("childDevices", usage: 5).outcome == .allowed)
            let tooMany = try await offline.access("childDevices", usage: 6)
            #expect(tooMany.outcome == .denied && tooMany.reason == .limitExceeded(maximum: 5))
            #expect(try await offline.access("teleportation").reason == .unknownFeature)

            let day4 = ReferenceTime.day(4)
            let expired = try Entitle(configuration: server.configuration(folder: folder, online: false, now: { day4 }), appUserID: "parent-6")
            #expect(try await expired.access("analytics.advanced").outcome == .denied, "the subscription ended after the answer was cached")
        }
    }

    @Test("online, the SDK's access answers equal the server's for every declared feature and limit")
    func agreesWithServer() async throws {
        try await Self.run { server in
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try await server.purchase("com.screentimerewards.individual.monthly", for: "parent-7", original: "k7", expires: ReferenceTime.day(31))
            let client = try Entitle(configuration: server.configuration(folder: folder), appUserID: "parent-7")
            let catalog = Fixtures.exampleCatalog("ScreenTimeRewards")
            for feature in catalog.features + catalog.limits {
                let sdk = try await client.access(feature, fetchPolicy: .fetchCurrent)
                var request = URLRequest(url: server.url.appendingPathComponent("/v1/subscribers/parent-7/access/\(feature)"))
                request.setValue("Bearer \(server.secretKey)", forHTTPHeaderField: "Authorization")
                let (data, _) = try await TestHTTP.answer(for: request)
                let answer = Access(try WireJSON.decoder.decode(AccessResponse.self, from: data))
                #expect(sdk.outcome == answer.outcome && sdk.reason == answer.reason && sdk.paywall == answer.paywall, "\(feature)")
            }
        }
    }

    @Test("seed 001: two conversations used offline count against the month's quota before they are sent")
    func quotaOffline() async throws {
        try await Self.run(example: "Epilogue", bundleID: "com.epilogue.app") { server in
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            _ = try await Entitle(configuration: server.configuration(folder: folder), appUserID: "reader-2").customerInfo(fetchPolicy: .fetchCurrent)
            let offline = try Entitle(configuration: server.configuration(folder: folder, online: false), appUserID: "reader-2")
            #expect(try await offline.access("conversations").outcome == .allowed)
            for key in ["a", "b"] { _ = try? await offline.recordUsage("conversations", idempotencyKey: key) }
            let exhausted = try await offline.access("conversations")
            #expect(exhausted.outcome == .denied && exhausted.reason?.code == "quota_exhausted")
        }
    }
}
