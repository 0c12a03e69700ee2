import AppStoreModels
import AppStoreVerification
@testable import EntitleServer
import EntitleCore
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOPosix
import LocalAppStore
import PostgresNIO
import Testing

@Suite("EventLoopChildChannel: requests handled on their connection's event loop")
struct EventLoopChildChannelTests {
    /// Where the handler ran: on an event loop, or on Swift concurrency's global executor.
    static func whereRun() -> String {
        MultiThreadedEventLoopGroup.currentEventLoop == nil ? "global" : "loop"
    }

    /// A server over a fresh SQLite ledger with two probes: one plain, one behind ``OffEventLoopMiddleware``.
    static func withServer(requestsOnEventLoops: Bool?, _ body: @escaping @Sendable (ServerHarness, any TestClientProtocol) async throws -> Void) async throws {
        let pki = try TestPKI.shared()
        let clock = TestClock()
        let keys = try APIKeys(secretKeys: [ServerHarness.secretKey], publicKeySecret: "public-key-secret-for-tests")
        try await StorageEngine.sqlite.withStore { store in
            let verifier = SignedDataVerifier(
                configuration: VerifierConfiguration(bundleID: "com.screentimerewards", environment: .sandbox, appAppleID: 1234, rootCertificates: [pki.root]),
                now: clock.reading)
            var configuration = ServerConfiguration(
                http: HTTPConfiguration(host: "127.0.0.1", port: 0, requestsOnEventLoops: requestsOnEventLoops), ledger: .store(store),
                catalog: Fixtures.exampleCatalog("ScreenTimeRewards"), verifiers: [verifier], keys: keys, analyticsRefreshInterval: nil,
                now: clock.reading, logger: Logger(label: "entitle.tests.server"))
            configuration.webhookInterval = nil
            configuration.extraRoutes = { router in
                router.get("/probe") { _, _ in whereRun() }
                router.group("/probe-off").add(middleware: OffEventLoopMiddleware()).get { _, _ in whereRun() }
            }
            let harness = ServerHarness(
                pki: pki, apple: AppleFacts(bundleID: "com.screentimerewards"), clock: clock, store: store.forApp("com.screentimerewards"), keys: keys,
                bundleID: "com.screentimerewards", authority: try TestAuthority.shared(),
                catalog: Fixtures.exampleCatalog("ScreenTimeRewards"))
            try await buildApplication(configuration: configuration).test(.live) { client in
                try await body(harness, client)
            }
        }
    }

    @Test(
        "handlers run on the connection's event loop when asked (off it behind OffEventLoopMiddleware), on the global executor otherwise",
        arguments: [(true, "loop"), (false, "global"), (nil, "global")] as [(Bool?, String)])
    func handlersRunWhereAsked(_ onLoops: Bool?, _ expected: String) async throws {
        try await Self.withServer(requestsOnEventLoops: onLoops) { harness, client in
            for _ in 0..<3 {
                let plain = String(buffer: try await harness.get(client, "/probe", key: nil).body)
                let off = String(buffer: try await harness.get(client, "/probe-off", key: nil).body)
                #expect(plain == expected)
                #expect(off == "global")
            }
        }
    }

    @Test("PostgreSQL: the server opens its event loops' read connections before it listens")
    func readConnectionsOpenBeforeListening() async throws {
        let loops = Array(MultiThreadedEventLoopGroup.singleton.makeIterator()).count
        try await StorageEngine.withPostgresDatabaseConfiguration { database in
            var database = database
            database.options.maximumConnections = 4 * loops
            let shares = LedgerConnection.postgresShares(total: database.options.maximumConnections, loops: loops)
            #expect(shares.perLoop == 2)
            let name = database.database ?? ""
            try await buildApplication(configuration: try ServerHarness.configuration(opening: .postgres(database))).test(.live) { _ in
                // No request yet: the pool holds what the migration used (at most its share); the rest
                // are the loops' connections.
                var backends = 0
                try await StorageEngine.withClient(try StorageEngine.testClusterConfiguration()) { admin in
                    for try await row in try await admin.query("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = \(name)") {
                        backends = try row.decode(Int.self)
                    }
                }
                #expect(backends >= shares.perLoop * loops + 1)
                #expect(backends <= shares.pool + shares.perLoop * loops)
            }
        }
    }

    @Test("on event loops, the API answers as before: a purchase submitted, the subscriber read, the analytics report")
    func apiOnEventLoops() async throws {
        try await Self.withServer(requestsOnEventLoops: true) { harness, client in
            let transaction = harness.apple.subscription(
                "com.screentimerewards.family.monthly", original: "770", purchase: ReferenceTime.start, expires: ReferenceTime.day(31))
            try await harness.submit(client, "parent-770", transaction)
            let subscriber = try await harness.subscriber(client, "parent-770")
            #expect(subscriber.entitlements.first { $0.id == "family" }?.state == "active")
            _ = try await harness.get(client, "/v1/analytics/overview", key: ServerHarness.secretKey)
        }
    }
}
