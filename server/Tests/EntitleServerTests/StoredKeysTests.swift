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

/// Keys kept in the database: app keys an app can ship, secret keys of one app.
@Suite("StoredKeys")
struct StoredKeysTests {
    static func call(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, key: String, app: String? = nil, body: ByteBuffer = ByteBuffer()
    ) async throws -> TestResponse {
        try await ServedAppsTests.request(client, method, uri, app: app, key: key, body: body)
    }

    static func create(_ client: any TestClientProtocol, kind: String, app: String) async throws -> KeyInfo {
        let response = try await call(
            client, .post, "/v1/keys", key: ServerHarness.secretKey, app: app, body: ServerHarness.json(CreateKeyRequest(kind: KeyKind(rawValue: kind), name: "iOS")))
        #expect(response.status == .created)
        return try ServerHarness.decode(KeyInfo.self, response)
    }

    @Test("an app key reaches its app's subscribers and offerings, without naming the app, and nothing else", arguments: StorageEngine.databases)
    func appKey(engine: StorageEngine) async throws {
        try await ServedAppsTests.run(engine: engine) { screenTime, epilogue, client in
            let created = try await Self.create(client, kind: "app", app: ServedAppsTests.epilogue)
            let key = try #require(created.key)
            #expect(key.hasPrefix("ak_") && created.app == ServedAppsTests.epilogue && created.prefix == String(key.prefix(10)))

            // Its app's subscribers: read, create, submit, usage; offerings.
            #expect(try await Self.call(client, .post, "/v1/subscribers/reader/trial", key: key).status == .ok)
            #expect(try await Self.call(client, .get, "/v1/subscribers/reader", key: key).status == .ok)
            #expect(try await Self.call(client, .get, "/v1/offerings", key: key).status == .ok)
            let plus = epilogue.apple.subscription(ServedAppsTests.plus, original: "900", purchase: ReferenceTime.start, expires: ReferenceTime.day(31))
            let submitted = try await Self.call(
                client, .post, "/v1/subscribers/reader/transactions", key: key,
                body: ServerHarness.json(SubmitTransactionRequest(signedTransaction: epilogue.pki.sign(plus))))
            #expect(submitted.status == .ok)
            #expect(try await epilogue.store.owner(originalTransactionID: "900") == "reader")
            #expect(try await screenTime.store.owner(originalTransactionID: "900") == nil)

            // Not the other app, whichever way it is named.
            #expect(try await Self.call(client, .get, "/v1/subscribers/reader", key: key, app: ServedAppsTests.screenTime).status == .forbidden)
            // No admin route.
            let admin: [(HTTPRequest.Method, String)] = [
                (.post, "/v1/subscribers/reader/grants"), (.post, "/v1/subscribers/reader/overrides"), (.put, "/v1/subscribers/reader/members/kid"),
                (.get, "/v1/subscribers/reader/events"), (.post, "/v1/subscribers/reader/keys"), (.get, "/v1/keys"), (.post, "/v1/keys"),
                (.get, "/v1/open-access"), (.put, "/v1/open-access"), (.get, "/v1/purchases/900"), (.get, "/v1/analytics/overview"),
            ]
            for (method, path) in admin {
                let refused = try await Self.call(client, method, path, key: key)
                #expect(refused.status == .forbidden, "\(method) \(path)")
                #expect(ServerHarness.errorCode(refused) == "auth.forbidden", "\(method) \(path)")
            }
        }
    }

    @Test("a stored secret key reaches everything of its app only; a revoked key is refused once the cache lapses", arguments: StorageEngine.databases)
    func secretKeyAndRevocation(engine: StorageEngine) async throws {
        try await ServedAppsTests.run(engine: engine) { screenTime, _, client in
            let created = try await Self.create(client, kind: "secret", app: ServedAppsTests.screenTime)
            let key = try #require(created.key)
            #expect(try await Self.call(client, .get, "/v1/open-access", key: key).status == .ok)
            #expect(try await Self.call(client, .get, "/v1/subscribers/reader/events", key: key).status == .ok)
            #expect(try await Self.call(client, .get, "/v1/subscribers/reader", key: key, app: ServedAppsTests.epilogue).status == .forbidden)

            let listed = try ServerHarness.decode([KeyInfo].self, try await Self.call(client, .get, "/v1/keys", key: key))
            #expect(listed.map(\.id) == [created.id])
            #expect(listed.allSatisfy { $0.key == nil }, "a key is never listed")
            let revoked = try await Self.call(client, .delete, "/v1/keys/\(created.id)", key: ServerHarness.secretKey, app: ServedAppsTests.screenTime)
            #expect(try ServerHarness.decode(KeyInfo.self, revoked).revokedAt != nil)
            screenTime.clock.set(ReferenceTime.start.addingTimeInterval(StoredKeys.cacheLifetime + 1))
            let refused = try await Self.call(client, .get, "/v1/open-access", key: key)
            #expect(refused.status == .unauthorized)
            #expect(ServerHarness.errorCode(refused) == "auth.invalidKey")
            #expect(try await Self.call(client, .get, "/v1/keys", key: "ak_not_a_key_of_this_server_000000").status == .unauthorized)
        }
    }

    @Test("an app key with another app's Entitle-App header is refused as auth.keyOfAnotherApp: no offerings, no answers of the other app", arguments: StorageEngine.databases)
    func keyOfAnotherApp(engine: StorageEngine) async throws {
        try await ServedAppsTests.run(engine: engine) { _, _, client in
            let key = try #require(try await Self.create(client, kind: "app", app: ServedAppsTests.screenTime).key)
            for path in ["/v1/offerings", "/v1/subscribers/reader", "/v1/subscribers/reader/access/conversations"] {
                let refused = try await Self.call(client, .get, path, key: key, app: ServedAppsTests.epilogue)
                #expect(refused.status == .forbidden, "\(path)")
                #expect(ServerHarness.errorCode(refused) == "auth.keyOfAnotherApp", "\(path)")
                #expect(try await Self.call(client, .get, path, key: key, app: ServedAppsTests.screenTime).status != .forbidden, "\(path)")
            }
        }
    }

    @Test("an app that takes per-subscriber keys refuses app keys; public and secret keys still work", arguments: StorageEngine.databases)
    func appKeysOff(engine: StorageEngine) async throws {
        try await ServedAppsTests.run(engine: engine, epilogueAppKeys: false) { screenTime, _, client in
            let key = try #require(try await Self.create(client, kind: "app", app: ServedAppsTests.epilogue).key)
            let refused = try await Self.call(client, .get, "/v1/subscribers/reader", key: key)
            #expect(refused.status == .forbidden)
            #expect(String(buffer: refused.body).contains("per-subscriber keys"))
            let publicKey = try #require(screenTime.keys.publicKey(for: "reader", app: BundleID(ServedAppsTests.epilogue)))
            #expect(try await Self.call(client, .get, "/v1/subscribers/reader", key: publicKey, app: ServedAppsTests.epilogue).status == .ok)
        }
    }
}
