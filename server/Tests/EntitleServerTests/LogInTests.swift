import AppStoreModels
import Crypto
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

/// Anonymous subscribers logging in (`POST /v1/subscribers/{anonymousID}/alias`).
@Suite("Log-in")
struct LogInTests {
    static let anonymous = "$anon:6f1c2a8e-4b1d-4c55-9d0e-3a7f7c1e2b90"
    static let encoded = "%24anon%3A6f1c2a8e-4b1d-4c55-9d0e-3a7f7c1e2b90"

    @discardableResult
    static func logIn(_ harness: ServerHarness, _ client: any TestClientProtocol, as known: String, expect: HTTPResponse.Status = .ok) async throws -> TestResponse {
        try await harness.post(
            client, "/v1/subscribers/\(encoded)/alias", key: ServerHarness.secretKey, body: ServerHarness.json(AliasRequest(appUserID: known)), expect: expect)
    }

    @Test("seed 001: the anonymous reader's trial, usage and purchase move to the account they sign in to; the anonymous ID then reaches it", arguments: StorageEngine.databases)
    func merge(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine, example: "Epilogue", bundleID: "com.epilogue.app") { harness, client in
            harness.clock.set(ReferenceTime.instant("2026-01-10T10:00:00Z"))
            try await harness.post(client, "/v1/subscribers/\(Self.encoded)/trial", key: ServerHarness.secretKey, body: ByteBuffer())
            for key in ["a", "b"] {
                try await harness.post(client, "/v1/subscribers/\(Self.encoded)/usage", key: ServerHarness.secretKey,
                                       body: ServerHarness.json(RecordUsageRequest(feature: "conversations", idempotencyKey: key)))
            }
            // The account already used one conversation this month on another device.
            try await harness.post(client, "/v1/subscribers/ana/usage", key: ServerHarness.secretKey,
                                   body: ServerHarness.json(RecordUsageRequest(feature: "conversations", idempotencyKey: "c")))
            // A purchase made while anonymous, whose notification arrives after the log-in.
            let anonymousToken = try #require(try ServerHarness.decode(SubscriberResponse.self, try await harness.get(
                client, "/v1/subscribers/\(Self.encoded)", key: ServerHarness.secretKey)).appAccountToken)

            let merged = try ServerHarness.decode(SubscriberResponse.self, try await Self.logIn(harness, client, as: "ana"))
            #expect(merged.appUserID == "ana")
            #expect(merged.appTrial.startedAt == ReferenceTime.instant("2026-01-10T10:00:00Z"))
            #expect(merged.quotas.first { $0.feature == "conversations" }?.used == 3, "uses in one window add up: no fresh quota by signing in")

            var plus = harness.apple.subscription("com.epilogue.plus.monthly", original: "950", purchase: harness.clock.now, expires: ReferenceTime.day(60))
            plus.appAccountToken = anonymousToken
            try await harness.postNotification(client, harness.notification(.subscribed, transaction: plus))
            #expect(try await harness.store.owner(originalTransactionID: "950") == "ana")

            // The anonymous ID is an alias now: it reaches ana.
            let viaAlias = try ServerHarness.decode(SubscriberResponse.self, try await harness.get(client, "/v1/subscribers/\(Self.encoded)", key: ServerHarness.secretKey))
            #expect(viaAlias.appUserID == "ana")
            #expect(viaAlias.entitlements.filter(\.isActive).map(\.id) == ["plus"])
            for id in [AppUserID("ana"), AppUserID(Self.anonymous)] {
                #expect(try await harness.store.projection(appUserID: id)
                    == SubscriberFacts.fold(appUserID: id, events: try await harness.store.events(appUserID: id)))
            }
            // Logging in again changes nothing; the same anonymous ID can't become someone else.
            try await Self.logIn(harness, client, as: "ana")
            let elsewhere = try await Self.logIn(harness, client, as: "bea", expect: .conflict)
            #expect(ServerHarness.errorCode(elsewhere) == "subscriber.alreadyMerged")
            #expect(try await harness.store.events(appUserID: "ana").filter { $0.source == .login }.count == 1)
        }
    }

    @Test("two devices logging in at once merge once", arguments: StorageEngine.databases)
    func concurrent(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            try await harness.post(client, "/v1/subscribers/\(Self.encoded)/trial", key: ServerHarness.secretKey, body: ByteBuffer())
            try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await Self.logIn(harness, client, as: "parent-7").status }
                }
                for try await status in group { #expect(status == .ok) }
            }
            #expect(try await harness.store.events(appUserID: "parent-7").filter { $0.source == .login }.count == 1)
            #expect(try await harness.store.aliasTarget(AppUserID(Self.anonymous)) == "parent-7")
        }
    }

    @Test("only an anonymous ID logs in, as a known one; an anonymous ID is $anon: and a UUID")
    func rules() async throws {
        try await ServerHarness.run { harness, client in
            let known = try await harness.post(client, "/v1/subscribers/ana/alias", key: ServerHarness.secretKey,
                                               body: ServerHarness.json(AliasRequest(appUserID: "bea")), expect: .badRequest)
            #expect(ServerHarness.errorCode(known) == "request.invalid")
            let intoAnonymous = try await Self.logIn(harness, client, as: "$anon:0b9a4f4e-1f40-4f2c-8a4e-8d2f3c9a1b7c", expect: .badRequest)
            #expect(ServerHarness.errorCode(intoAnonymous) == "request.invalid")
            let malformed = try await harness.get(client, "/v1/subscribers/%24anon%3Anot-a-uuid", key: ServerHarness.secretKey, expect: .badRequest)
            #expect(ServerHarness.errorCode(malformed) == "subscriber.invalidAppUserID")
        }
    }

    // MARK: - Log-in tokens (docs/identity.md)

    static let backend = P256.Signing.PrivateKey()

    /// Seed 004's catalog with the backend's log-in token key.
    static func catalog(requiredForAppKeys: Bool) -> Catalog {
        var catalog = Fixtures.exampleCatalog("ScreenTimeRewards")
        catalog.logInTokens = LogInTokenPolicy(
            publicKeys: ["backend": Array(backend.publicKey.x963Representation)], requiredForAppKeys: requiredForAppKeys)
        return catalog
    }

    static func token(_ harness: ServerHarness, for user: AppUserID, key: P256.Signing.PrivateKey = backend, lifetime: TimeInterval = 300) throws -> String {
        try LogInToken.sign(appUserID: user, app: BundleID(harness.bundleID), issuedAt: harness.clock.now, lifetime: lifetime, keyID: "backend", key: key)
    }

    static func alias(
        _ harness: ServerHarness, _ client: any TestClientProtocol, key: String, as known: String, token: String?, expect: HTTPResponse.Status
    ) async throws -> TestResponse {
        try await harness.post(
            client, "/v1/subscribers/\(encoded)/alias", key: key, body: ServerHarness.json(AliasRequest(appUserID: known, logInToken: token)), expect: expect)
    }

    @Test("a per-subscriber key of an anonymous user can't become a known user without the backend's token; with it, the answer carries the user's own key",
          arguments: StorageEngine.databases)
    func publicKeyNeedsToken(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine, catalog: Self.catalog(requiredForAppKeys: false)) { harness, client in
            // Alice's data, which the attack was after.
            try await harness.post(client, "/v1/subscribers/alice/trial", key: ServerHarness.secretKey, body: ByteBuffer())
            let anonymousKey = harness.publicKey(Self.anonymous)

            let refused = try await Self.alias(harness, client, key: anonymousKey, as: "alice", token: nil, expect: .forbidden)
            #expect(ServerHarness.errorCode(refused) == "auth.logInTokenRequired")
            for (token, why) in [
                (try Self.token(harness, for: "mallory"), "another user"), (try Self.token(harness, for: "alice", key: P256.Signing.PrivateKey()), "not signed"),
            ] {
                let forged = try await Self.alias(harness, client, key: anonymousKey, as: "alice", token: token, expect: .unauthorized)
                #expect(ServerHarness.errorCode(forged) == "auth.invalidLogInToken")
                #expect(try ServerHarness.decode(ErrorResponse.self, forged).error.message.contains(why))
            }
            // Nothing merged: the anonymous key still reaches the anonymous subscriber only.
            #expect(try await harness.store.aliasTarget(AppUserID(Self.anonymous)) == nil)
            let stillAnonymous = try ServerHarness.decode(SubscriberResponse.self, try await harness.get(client, "/v1/subscribers/\(Self.encoded)", key: anonymousKey))
            #expect(stillAnonymous.appUserID == Self.anonymous)
            try await harness.get(client, "/v1/subscribers/alice", key: anonymousKey, expect: .forbidden)

            // An expired token (the backend's five minutes are over).
            let old = try Self.token(harness, for: "alice")
            harness.clock.set(harness.clock.now.addingTimeInterval(3600))
            let expired = try await Self.alias(harness, client, key: anonymousKey, as: "alice", token: old, expect: .unauthorized)
            #expect(try ServerHarness.decode(ErrorResponse.self, expired).error.message.contains("expired"))

            // With the backend's token: merged, and the answer hands the app alice's own key.
            let proven = try await Self.alias(harness, client, key: anonymousKey, as: "alice", token: try Self.token(harness, for: "alice"), expect: .ok)
            #expect(try ServerHarness.decode(SubscriberResponse.self, proven).appUserID == "alice")
            let aliceKey = try #require(proven.headers[HTTPField.Name("Entitle-Subscriber-Key")!])
            #expect(aliceKey == harness.publicKey("alice"))
            try await harness.get(client, "/v1/subscribers/alice", key: aliceKey)
        }
    }

    @Test("with requiredForAppKeys an app key reaches anonymous users only; a known user is reached with the key a log-in with a token returned",
          arguments: StorageEngine.databases)
    func appKeyNeedsToken(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine, catalog: Self.catalog(requiredForAppKeys: true)) { harness, client in
            let created = try await harness.post(
                client, "/v1/keys", key: ServerHarness.secretKey, body: ServerHarness.json(CreateKeyRequest(kind: "app")), expect: .created)
            let appKey = try #require(try ServerHarness.decode(KeyInfo.self, created).key)
            try await harness.post(client, "/v1/subscribers/alice/trial", key: ServerHarness.secretKey, body: ByteBuffer())

            // Alone, the app key shipped in every copy of the app can't read a known user.
            for uri in ["/v1/subscribers/alice", "/v1/subscribers/alice/access/childDevices", "/v1/offerings?appUserID=alice"] {
                let refused = try await harness.get(client, uri, key: appKey, expect: .forbidden)
                #expect(ServerHarness.errorCode(refused) == "auth.logInTokenRequired")
            }
            // Anonymous users are the app key's.
            try await harness.post(client, "/v1/subscribers/\(Self.encoded)/trial", key: appKey, body: ByteBuffer())
            try await harness.get(client, "/v1/offerings", key: appKey)
            let noToken = try await Self.alias(harness, client, key: appKey, as: "alice", token: nil, expect: .forbidden)
            #expect(ServerHarness.errorCode(noToken) == "auth.logInTokenRequired")

            let proven = try await Self.alias(harness, client, key: appKey, as: "alice", token: try Self.token(harness, for: "alice"), expect: .ok)
            let aliceKey = try #require(proven.headers[HTTPField.Name("Entitle-Subscriber-Key")!])
            try await harness.get(client, "/v1/subscribers/alice", key: aliceKey)
            // The anonymous ID reaches alice now: not with the app key.
            let viaAlias = try await harness.get(client, "/v1/subscribers/\(Self.encoded)", key: appKey, expect: .forbidden)
            #expect(ServerHarness.errorCode(viaAlias) == "auth.logInTokenRequired")
            // The backend's secret key needs no token.
            try await harness.get(client, "/v1/subscribers/alice", key: ServerHarness.secretKey)
        }
    }

    @Test("an app that doesn't ask for tokens: an app key logs in without one, and a token sent is still checked")
    func appKeyWithoutRequirement() async throws {
        try await ServerHarness.run(catalog: Self.catalog(requiredForAppKeys: false)) { harness, client in
            let created = try await harness.post(
                client, "/v1/keys", key: ServerHarness.secretKey, body: ServerHarness.json(CreateKeyRequest(kind: "app")), expect: .created)
            let appKey = try #require(try ServerHarness.decode(KeyInfo.self, created).key)
            let forged = try await Self.alias(harness, client, key: appKey, as: "alice", token: try Self.token(harness, for: "bob"), expect: .unauthorized)
            #expect(ServerHarness.errorCode(forged) == "auth.invalidLogInToken")
            let merged = try await Self.alias(harness, client, key: appKey, as: "alice", token: nil, expect: .ok)
            #expect(merged.headers[HTTPField.Name("Entitle-Subscriber-Key")!] == nil)
        }
    }
}
