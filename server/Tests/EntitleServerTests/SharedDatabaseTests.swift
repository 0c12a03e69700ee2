import AppStoreModels
import EntitleCore
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HummingbirdTesting
import LocalAppStore
import PostgresNIO
import Testing

/// Several server instances sharing one PostgreSQL database, as in production behind a load balancer.
@Suite("Server instances sharing PostgreSQL")
struct SharedDatabaseTests {
    static let family = "com.screentimerewards.family.monthly"
    static func day(_ n: Double) -> Date { ReferenceTime.day(n) }

    @Test("the same notifications delivered at once to two instances are stored once, and both answer the in-order state")
    func concurrentDelivery() async throws {
        let pki = try TestPKI.shared()
        let clock = TestClock()
        let keys = try APIKeys(secretKeys: [ServerHarness.secretKey], publicKeySecret: "public-key-secret-for-tests")
        try await StorageEngine.withPostgresDatabaseConfiguration { configuration in
            try await StorageEngine.withClient(configuration) { first in
                try await StorageEngine.withClient(configuration) { second in
                    // Both instances start together: the migration runs once, under its lock.
                    async let openFirst = PostgresLedgerStore.open(client: first)
                    async let openSecond = PostgresLedgerStore.open(client: second)
                    let stores = try await [openFirst, openSecond].map { $0.forApp("com.screentimerewards") }
                    let harness = ServerHarness(
                        pki: pki, apple: AppleFacts(bundleID: "com.screentimerewards"), clock: clock, store: stores[0], keys: keys,
                        bundleID: "com.screentimerewards", authority: try TestAuthority.shared(),
                        catalog: Fixtures.exampleCatalog("ScreenTimeRewards"))
                    let one = try await ServerHarness.application(store: stores[0], pki: pki, clock: clock, keys: keys)
                    let two = try await ServerHarness.application(store: stores[1], pki: pki, clock: clock, keys: keys)
                    try await one.test(.live) { clientOne in
                        try await two.test(.live) { clientTwo in
                            try await Self.deliver(harness: harness, to: [clientOne, clientTwo], stores: stores)
                        }
                    }
                }
            }
        }
    }

    private static func deliver(harness: ServerHarness, to clients: [any TestClientProtocol], stores: [any LedgerStore]) async throws {
        var notifications: [String] = []
        for period in 0..<6 {
            let transaction = harness.apple.subscription(family, original: "900", id: "900-\(period)", purchase: day(Double(period) * 30),
                                                         expires: day(Double(period + 1) * 30), reason: period == 0 ? .purchase : .renewal)
            let renewal = harness.apple.renewal(original: "900", product: family, autoRenew: period == 5 ? .off : .on, signed: day(Double(period) * 30 + 1))
            notifications.append(harness.notification(period == 0 ? .subscribed : .didRenew, transaction: transaction, renewal: renewal))
        }
        // Every notification goes to both instances at the same moment, newest first.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for signed in notifications.reversed() {
                for client in clients {
                    group.addTask { try await harness.postNotification(client, signed) }
                }
            }
            try await group.waitForAll()
        }
        let link = harness.apple.subscription(family, original: "900", id: "900-0", purchase: day(0), expires: day(30))
        try await harness.submit(clients[1], "parent-900", link)
        harness.clock.set(day(170))

        #expect(try await stores[0].eventCount() == 7)
        let answers = try await [harness.subscriber(clients[0], "parent-900"), harness.subscriber(clients[1], "parent-900")]
        #expect(answers[0] == answers[1])
        #expect(answers[0].subscriptions.first?.state == "active_not_renewing")
        #expect(answers[0].subscriptions.first?.expiresAt == day(180))
        let expected = SubscriberFacts.fold(appUserID: "parent-900", events: try await stores[1].events(appUserID: "parent-900"))
        #expect(try await stores[0].projection(appUserID: "parent-900") == expected)
        #expect(try await stores[1].rebuildProjections() == 1)
        #expect(try await stores[0].projection(appUserID: "parent-900") == expected)
    }
}
