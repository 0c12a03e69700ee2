import AppStoreModels
import AppStoreVerification
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore
import Synchronization
import Testing

@Suite("LedgerReadiness: background work waits for the ledger's migration")
struct LedgerReadinessTests {
    final class Flag: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
    }

    @Test("a waiter goes on when it opens, at once when it is open, and when cancelled")
    func waits() async throws {
        let readiness = LedgerReadiness()
        #expect(!readiness.isReady)
        let passed = Flag()
        let waiter = Task {
            await readiness.wait()
            passed.set()
        }
        for _ in 0..<100 { await Task.yield() }
        #expect(!passed.isSet)
        readiness.markReady()
        await waiter.value
        #expect(passed.isSet)
        // Open: returns at once.
        await readiness.wait()
        // Cancelled while waiting on one that never opens: returns.
        let closed = LedgerReadiness()
        let cancelled = Task { await closed.wait() }
        cancelled.cancel()
        await cancelled.value
        #expect(!closed.isReady)
    }

    @Test("PostgreSQL: a server on a fresh database starts its background work after the migration: nothing fails meanwhile")
    func backgroundWorkAfterMigration() async throws {
        let pki = try TestPKI.shared()
        let clock = TestClock()
        let keys = try APIKeys(secretKeys: [ServerHarness.secretKey], publicKeySecret: "public-key-secret-for-tests")
        let records = RecordingLogHandler.Records()
        try await StorageEngine.withPostgresDatabaseConfiguration { database in
            let verifier = SignedDataVerifier(
                configuration: VerifierConfiguration(bundleID: "com.screentimerewards", environment: .sandbox, rootCertificates: [pki.root]),
                now: clock.reading)
            var configuration = ServerConfiguration(
                http: HTTPConfiguration(host: "127.0.0.1", port: 0), ledger: .database(.postgres(database)),
                catalog: Fixtures.exampleCatalog("ScreenTimeRewards"), verifiers: [verifier], keys: keys,
                analyticsRefreshInterval: .milliseconds(10), now: clock.reading, logger: RecordingLogHandler.logger("entitle.tests.server", records: records))
            configuration.webhookInterval = .milliseconds(10)
            let app = try await buildApplication(configuration: configuration)
            try await app.test(.live) { client in
                // The webhook worker's first pass has run: its backlog gauge shows.
                var sent = false
                for _ in 0..<200 where !sent {
                    let metrics = try await client.execute(uri: "/metrics", method: .get)
                    sent = String(buffer: metrics.body).contains("entitle_webhook_deliveries{")
                    if !sent { try await Task.sleep(for: .milliseconds(25)) }
                }
                #expect(sent)
            }
        }
        // Nor at shutdown, which cuts the 10 ms passes short.
        let complaints = records.all.filter { $0.level >= .warning }
        #expect(complaints.isEmpty, "\(complaints.map { "\($0.message) \($0.metadata)" })")
    }
}
