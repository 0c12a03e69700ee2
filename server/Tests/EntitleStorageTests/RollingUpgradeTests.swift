import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@testable import EntitleStorage

/// The rolling-upgrade rule (docs/operations.md, "Upgrading"): a release whose migrations only expand is
/// read and written by the release before it, on one database.
@Suite("Rolling upgrades")
struct RollingUpgradeTests {
    @Test("a binary of the previous schema (25) goes on beside a database the newer one migrated; a contraction refuses it", arguments: StorageEngine.databases)
    func previousRelease(engine: StorageEngine) async throws {
        try await engine.withStore { root in
            let newer = try #require(root as? SQLLedgerStore)
            // The previous release opens the database the newer one migrated (through 31), and writes and reads.
            try await newer.migrate(through: 25)
            let app = newer.forApp("com.example.one")
            for event in LedgerStoreConformanceTests.history(user: "u1", original: "1000", seedBase: 0) { _ = try await app.append(event) }
            #expect(try await app.projection(appUserID: "u1")?.purchases.keys.contains("1000") == true)
            // A later release contracts (drops what 25 reads): the previous release refuses to start rather than misread.
            try await newer.engine.transaction { session throws(StorageError) in
                _ = try await session.execute("INSERT INTO schema_migrations (version, applied_at) VALUES (32, 0)", [])
                _ = try await session.execute("INSERT INTO schema_readers (version, oldest_reader) VALUES (32, 32)", [])
            }
            do {
                try await newer.migrate(through: 31)
                Issue.record("a binary of schema 31 opened a database at a contraction it can't read")
            } catch {
                #expect((error as? StorageError)?.code == .schemaTooNew)
            }
        }
    }
}
