import AppStoreModels
import EntitleCore
import EntitleServer
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import LocalAppStore
import Testing

/// Seed 002's test plan (PantryPal: household premium, 25 free items, read-only beyond) through the
/// real server with the local App Store's signed data.
@Suite("Seed 002 test plan (PantryPal)")
struct Seed002ScenarioTests {
    static let monthly = "com.pantrypal.premium.monthly"
    static func day(_ n: Double) -> Date { ReferenceTime.day(n) }

    static func run(_ body: @Sendable (ServerHarness, any TestClientProtocol) async throws -> Void) async throws {
        try await ServerHarness.run(example: "PantryPal", bundleID: "me.subasically.pantrypal", restorePolicy: .transferToNewest, body)
    }

    static func access(_ harness: ServerHarness, _ client: any TestClientProtocol, _ user: String, _ feature: String, usage: Int = 1) async throws -> AccessResponse {
        try ServerHarness.decode(AccessResponse.self, try await harness.get(
            client, "/v1/subscribers/\(user)/access/\(feature)?usage=\(usage)", key: harness.publicKey(user)))
    }

    /// Buys the monthly plan without the introductory week, as `user`.
    static func buy(_ harness: ServerHarness, _ client: any TestClientProtocol, _ store: inout StoreSimulator, _ user: String) async throws -> String {
        try await harness.buy(client, &store, monthly, as: user, at: Self.day(0)).originalTransactionID
    }

    @Test("1. Happy path: a monthly purchase activates premium and unlocks items beyond 25")
    func happyPath() async throws {
        try await Self.run { harness, client in
            #expect(try await Self.access(harness, client, "cook-1", "items", usage: 26).outcome == "denied")
            var store = harness.localStore()
            _ = try await Self.buy(harness, client, &store, "cook-1")
            #expect(try await harness.subscriber(client, "cook-1").entitlements.filter(\.isActive).map(\.id) == ["premium"])
            #expect(try await Self.access(harness, client, "cook-1", "items", usage: 26).outcome == "allowed")
        }
    }

    @Test("2. Cancellation: premium remains until the end of the period, then the free tier")
    func cancellation() async throws {
        try await Self.run { harness, client in
            var store = harness.localStore()
            let original = try await Self.buy(harness, client, &store, "cook-2")
            try await harness.deliver(client, store.setAutoRenew(original, false, at: Self.day(3)))
            harness.clock.set(Self.day(4))
            let cancelled = try await harness.subscriber(client, "cook-2")
            #expect(cancelled.entitlements.first { $0.id == "premium" }?.state == "active_not_renewing")
            #expect(cancelled.entitlements.first { $0.id == "premium" }?.willRenew == false)
            try await harness.deliver(client, store.expire(original, reason: .voluntary))
            harness.clock.set(Self.day(32))
            #expect(try await harness.subscriber(client, "cook-2").entitlements.filter(\.isActive).isEmpty)
            #expect(try await Self.access(harness, client, "cook-2", "items", usage: 25).outcome == "allowed")
        }
    }

    @Test("3. Renewal: premium's expiry moves to the new period's end with no gap")
    func renewal() async throws {
        try await Self.run { harness, client in
            var store = harness.localStore()
            let original = try await Self.buy(harness, client, &store, "cook-3")
            let first = try #require(store.subscription(original)?.expiresDate)
            try await harness.deliver(client, store.renew(original))
            let second = try #require(store.subscription(original)?.expiresDate)
            harness.clock.set(first)
            let renewed = try await harness.subscriber(client, "cook-3")
            #expect(renewed.entitlements.first { $0.id == "premium" }?.isActive == true)
            #expect(renewed.entitlements.first { $0.id == "premium" }?.expiresAt == second)
            #expect(second > first)
        }
    }

    @Test("4. Restore: after reinstalling, restoring the purchase reactivates premium")
    func restore() async throws {
        try await Self.run { harness, client in
            var store = harness.localStore()
            let original = try await Self.buy(harness, client, &store, "cook-4")
            harness.clock.set(Self.day(6))
            // The reinstalled app has a new user id until it restores.
            try await harness.submit(client, "cook-4-reinstalled", signed: store.currentTransaction(original, at: Self.day(6)))
            #expect(try await harness.subscriber(client, "cook-4-reinstalled").entitlements.filter(\.isActive).map(\.id) == ["premium"])
        }
    }

    @Test("5. Multi-device: bought on one device, premium on the household's other members and devices")
    func multiDevice() async throws {
        try await Self.run { harness, client in
            var store = harness.localStore()
            _ = try await Self.buy(harness, client, &store, "household-5")
            // Another device of the same user reads the same subscriber.
            #expect(try await harness.subscriber(client, "household-5").entitlements.filter(\.isActive).map(\.id) == ["premium"])
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(ServerHarness.secretKey)"
            let joined = try await client.execute(uri: "/v1/subscribers/household-5/members/partner-5", method: .put, headers: headers)
            #expect(joined.status == .ok)
            #expect(try await harness.subscriber(client, "partner-5").entitlements.filter(\.isActive).map(\.id) == ["premium"])
        }
    }

    @Test("6. Expired: back on the free tier, more than 25 items stay viewable but not editable")
    func expired() async throws {
        try await Self.run { harness, client in
            var store = harness.localStore()
            let original = try await Self.buy(harness, client, &store, "cook-6")
            try await harness.deliver(client, store.setAutoRenew(original, false, at: Self.day(10)))
            try await harness.deliver(client, store.expire(original, reason: .voluntary))
            harness.clock.set(Self.day(40))
            #expect(try await Self.access(harness, client, "cook-6", "items.view").outcome == "allowed")
            let edit = try await Self.access(harness, client, "cook-6", "items", usage: 40)
            #expect(edit.outcome == "denied")
            #expect(edit.reason?.maximum == 25)
            #expect(edit.paywall == "renew")
        }
    }
}
