import EntitleCore
import EntitleStorage
@testable import EntitleTestSupport
import Foundation
import PostgresNIO
import Testing

/// The borrowed PostgreSQL databases the tests run on: given back, each is the migrated template again,
/// or dropped when a test changed what a reset can't put back.
@Suite("PostgresTestDatabases")
struct PostgresTestDatabasesTests {
    static func admin() throws -> PostgresClient.Configuration { try StorageEngine.testClusterConfiguration() }

    static func count(_ client: PostgresClient, _ sql: String) async throws -> Int {
        var count = 0
        for try await value in try await client.query(PostgresQuery(unsafeSQL: sql)).decode(Int.self) { count = value }
        return count
    }

    static func purchase(_ user: String, seed: Int) -> LedgerEvent {
        let transaction = AppleFacts().subscription(
            "com.example.monthly", original: "T-\(user)", id: "T-\(user)-0", purchase: ReferenceTime.start,
            expires: ISODuration(months: 1).added(to: ReferenceTime.start))
        return LedgerEvents.appTransaction(seed, appUserID: AppUserID(user), transaction)
    }

    @Test("PostgreSQL: a database written to and reset is the template again: no rows but the schema's versions, sequences from the start")
    func resetIsTheTemplate() async throws {
        let admin = try Self.admin()
        let template = try await PostgresTestDatabases.shared.template(admin: admin)
        try await PostgresTestDatabases.withCopy(of: template, admin: admin) { configuration in
            let name = try #require(configuration.database)
            var versions = 0
            try await StorageEngine.withClient(configuration) { client in
                versions = try await Self.count(client, "SELECT count(*) FROM schema_migrations")
                let store = try await PostgresLedgerStore.open(client: client)
                #expect(try await store.append(Self.purchase("u1", seed: 1)) == .appended(sequence: 1, appUserID: "u1"))
                _ = try await store.append(Self.purchase("u2", seed: 2))
                _ = try await client.query("DELETE FROM schema_migrations WHERE version = 1")
            }
            #expect(versions > 0)
            // A connection left open, as a test that failed part way might leave one, is ended.
            var reset = false
            try await StorageEngine.withClient(configuration) { leftOpen in
                #expect(try await Self.count(leftOpen, "SELECT 1") == 1)
                reset = try await PostgresTestDatabases.reset(name, to: template, admin: admin)
            }
            #expect(reset)
            try await StorageEngine.withClient(configuration) { client in
                #expect(try await Self.count(client, "SELECT count(*) FROM ledger_events") == 0)
                #expect(try await Self.count(client, "SELECT count(*) FROM schema_migrations") == versions)
                let store = try await PostgresLedgerStore.open(client: client)
                #expect(try await store.subscriberIDs().isEmpty)
                #expect(try await store.append(Self.purchase("u3", seed: 3)) == .appended(sequence: 1, appUserID: "u3"), "the sequence starts again")
            }
        }
    }

    @Test("PostgreSQL: a database whose schema or settings a test changed is not reset, to be dropped", arguments: [
        "CREATE TABLE extra (id INT)", "ALTER TABLE ledger_events ADD COLUMN extra INT", "CREATE INDEX extra_index ON ledger_events (received_at)",
        "ALTER DATABASE {name} CONNECTION LIMIT 3", "ALTER DATABASE {name} SET work_mem = '8MB'",
    ])
    func changedIsNotReset(change: String) async throws {
        let admin = try Self.admin()
        let template = try await PostgresTestDatabases.shared.template(admin: admin)
        try await PostgresTestDatabases.withCopy(of: template, admin: admin) { configuration in
            let name = try #require(configuration.database)
            #expect(try await PostgresTestDatabases.reset(name, to: template, admin: admin), "unchanged, it resets")
            try await StorageEngine.withClient(configuration) { client in
                _ = try await client.query(PostgresQuery(unsafeSQL: change.replacingOccurrences(of: "{name}", with: name)))
            }
            #expect(try await !PostgresTestDatabases.reset(name, to: template, admin: admin))
        }
    }

    @Test("PostgreSQL: a test borrowing a second database while it holds one gets a copy of its own")
    func nested() async throws {
        try await StorageEngine.withPostgresDatabaseConfiguration(migrated: true) { outer in
            try await StorageEngine.withPostgresDatabaseConfiguration(migrated: true) { inner in
                #expect(inner.database != outer.database)
                #expect(inner.database?.hasPrefix(PostgresTestDatabases.copyPrefix) == false)
            }
        }
    }
}
