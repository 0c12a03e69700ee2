import AppStoreModels
import EntitleCore
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import LocalAppStore
import Testing

/// Seed 004's child devices through the real server: the Individual plan pairs 1 child device, Family 5;
/// the limit is enforced when a device registers, a downgrade or a lapse pauses the newest beyond it, and
/// an upgrade resumes them.
@Suite("Item registry: paired devices under their limit")
struct ItemRegistryTests {
    static let family = "com.screentimerewards.family.monthly"
    static let individual = "com.screentimerewards.individual.monthly"

    static func register(
        _ harness: ServerHarness, _ client: any TestClientProtocol, _ user: String, _ id: String, name: String? = nil, limit: String = "childDevices",
        expect status: HTTPResponse.Status = .ok
    ) async throws -> ItemRegistrationResponse? {
        let response = try await harness.post(
            client, "/v1/subscribers/\(user)/items", key: harness.publicKey(user), body: ServerHarness.json(RegisterItemRequest(limit: limit, id: id, name: name)),
            expect: status)
        return status == .ok ? try ServerHarness.decode(ItemRegistrationResponse.self, response) : nil
    }

    static func items(_ harness: ServerHarness, _ client: any TestClientProtocol, _ user: String) async throws -> [String: Bool] {
        let response = try ServerHarness.decode(ItemsResponse.self, try await harness.get(client, "/v1/subscribers/\(user)/items", key: harness.publicKey(user)))
        return Dictionary(uniqueKeysWithValues: response.items.map { ($0.id, $0.isPaused) })
    }

    @Test("seed 004: Individual pairs 1 child device and refuses the 2nd with the upgrade paywall; Family 5; a downgrade pauses the newest, an upgrade resumes them",
          arguments: StorageEngine.databases)
    func limits(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let clock = harness.clock
            var store = harness.localStore()
            // No plan, no trial: the free tier pairs none.
            let none = try #require(try await Self.register(harness, client, "parent-1", "ipad-1", name: "Mia's iPad"))
            #expect(!none.registered && none.access.outcome == "denied" && none.items.isEmpty)
            #expect(none.access.paywall != nil)

            clock.set(ReferenceTime.day(1))
            let bought = try await harness.buy(client, &store, Self.individual, as: "parent-1", at: clock.now)
            let first = try #require(try await Self.register(harness, client, "parent-1", "ipad-1", name: "Mia's iPad"))
            #expect(first.registered && first.items.map(\.id) == ["ipad-1"] && first.items.first?.name == "Mia's iPad")
            clock.set(clock.now.addingTimeInterval(60))
            let second = try #require(try await Self.register(harness, client, "parent-1", "ipad-2"))
            #expect(!second.registered)
            #expect(second.access.outcome == "denied" && second.access.reason?.code == "limit_exceeded" && second.access.reason?.maximum == 1)
            #expect(second.access.paywall == "upgrade")
            // Registering the same device again is answered as registered, and counted once.
            let again = try #require(try await Self.register(harness, client, "parent-1", "ipad-1"))
            #expect(again.registered && again.items.count == 1 && again.items.first?.name == "Mia's iPad")

            // The upgrade to Family takes effect at once: 5 devices.
            clock.set(clock.now.addingTimeInterval(3_600))
            try await harness.deliver(client, try store.changeProduct(bought.originalTransactionID, to: Self.family, at: clock.now))
            for id in ["ipad-2", "ipad-3"] {
                clock.set(clock.now.addingTimeInterval(60))
                #expect(try await Self.register(harness, client, "parent-1", id)?.registered == true)
            }
            // Renamed, and the name shows everywhere.
            var rename = HTTPFields()
            rename[.authorization] = "Bearer \(harness.publicKey("parent-1"))"
            rename[.contentType] = "application/json"
            let renamed = try await client.execute(
                uri: "/v1/subscribers/parent-1/items/childDevices/ipad-2", method: .patch, headers: rename, body: ServerHarness.json(RenameItemRequest(name: "Leo's iPad")))
            #expect(renamed.status == .ok)
            #expect(try await harness.subscriber(client, "parent-1").items.first { $0.id == "ipad-2" }?.name == "Leo's iPad")
            #expect(try await Self.items(harness, client, "parent-1") == ["ipad-1": false, "ipad-2": false, "ipad-3": false])

            // Downgrade to Individual, at the renewal: the two newest pause, the oldest keeps working.
            clock.set(clock.now.addingTimeInterval(3_600))
            try await harness.deliver(client, try store.changeProduct(bought.originalTransactionID, to: Self.individual, at: clock.now))
            #expect(try await Self.items(harness, client, "parent-1").values.allSatisfy { !$0 }, "a downgrade waits for the renewal")
            let renewal = try #require(store.subscription(bought.originalTransactionID)?.expiresDate)
            clock.set(renewal.addingTimeInterval(60))
            try await harness.deliver(client, try store.renew(bought.originalTransactionID, at: renewal))
            #expect(try await Self.items(harness, client, "parent-1") == ["ipad-1": false, "ipad-2": true, "ipad-3": true])
            // A paused device still counts: a 4th is refused.
            #expect(try await Self.register(harness, client, "parent-1", "ipad-4")?.registered == false)
            // Removing the oldest makes room: the next oldest resumes.
            try await harness.delete(client, "/v1/subscribers/parent-1/items/childDevices/ipad-1", key: harness.publicKey("parent-1"))
            #expect(try await Self.items(harness, client, "parent-1") == ["ipad-2": false, "ipad-3": true])
            // The same answer in the subscriber, where the SDK caches it.
            #expect(try await harness.subscriber(client, "parent-1").items.map(\.isPaused) == [false, true])
        }
    }

    @Test("what the registry refuses: an unknown limit, a malformed ID or name, an item that isn't registered")
    func refusals() async throws {
        try await ServerHarness.run { harness, client in
            let unknown = try await harness.post(
                client, "/v1/subscribers/parent-1/items", key: harness.publicKey("parent-1"),
                body: ServerHarness.json(RegisterItemRequest(limit: "tablets", id: "ipad-1")), expect: .badRequest)
            #expect(ServerHarness.errorCode(unknown) == "items.unknownLimit")
            for (id, name) in [("", nil), ("has space", nil), ("a/b", nil), (String(repeating: "x", count: 129), nil), ("ok", ""), ("ok", "line\nbreak")] as [(String, String?)] {
                let bad = try await harness.post(
                    client, "/v1/subscribers/parent-1/items", key: harness.publicKey("parent-1"),
                    body: ServerHarness.json(RegisterItemRequest(limit: "childDevices", id: id, name: name)), expect: .badRequest)
                #expect(ServerHarness.errorCode(bad) == "request.invalid")
            }
            let missing = try await harness.delete(
                client, "/v1/subscribers/parent-1/items/childDevices/ipad-9", key: harness.publicKey("parent-1"), expect: .notFound)
            #expect(ServerHarness.errorCode(missing) == "items.notFound")
            // Another subscriber's key reaches only its own registry.
            try await harness.post(
                client, "/v1/subscribers/parent-1/items", key: harness.publicKey("parent-2"),
                body: ServerHarness.json(RegisterItemRequest(limit: "childDevices", id: "ipad-1")), expect: .forbidden)
        }
    }

    @Test("devices registered at once under a limit of one: exactly one gets the place", arguments: StorageEngine.databases)
    func concurrentRegistrations(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            var store = harness.localStore()
            harness.clock.set(ReferenceTime.day(1))
            try await harness.buy(client, &store, Self.individual, as: "parent-1", at: harness.clock.now)
            let service = harness.service()
            let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<6 {
                    group.addTask {
                        try await service.items.register(appUserID: "parent-1", limit: "childDevices", itemID: "ipad-\(index)", name: nil).registered
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 1)
            #expect(try await Self.items(harness, client, "parent-1").count == 1)
        }
    }
}
