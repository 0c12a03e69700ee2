import EntitleCore
import EntitleTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import EntitleStorage

@Suite("PreparedKeptStatement")
struct PreparedKeptStatementTests {
    static let logger = Logger(label: "entitle.tests.prepared-kept-statement")

    /// A migrated ledger on a pool of one connection, so that every statement runs on the same one.
    static func withOneConnection(_ body: (SQLLedgerStore, PostgresClient.Configuration) async throws -> Void) async throws {
        try await StorageEngine.withPostgresDatabaseConfiguration(migrated: true) { configuration in
            var one = configuration
            one.options.maximumConnections = 1
            try await StorageEngine.withClient(one) { client in
                let store = try #require(try await PostgresLedgerStore.open(client: client, logger: logger) as? SQLLedgerStore)
                try await body(store, configuration)
            }
        }
    }

    /// The connection's prepared statements that are kept statements, with how many times each ran.
    static func prepared(_ store: SQLLedgerStore) async throws -> [String: Int64] {
        let rows = try await store.engine.read { session throws(StorageError) in
            try await session.execute("SELECT name, generic_plans + custom_plans AS runs FROM pg_prepared_statements", [])
        }
        var runs: [String: Int64] = [:]
        for row in rows {
            if let name = try row.nullableText("name"), name.hasPrefix("entitle_") { runs[name] = try row.nullableInteger("runs") }
        }
        return runs
    }

    @Test("PostgreSQL: a subscriber's reads and appends run their statements prepared once on the connection, and answer as before")
    func preparedOnce() async throws {
        try await Self.withOneConnection { store, _ in
            let start = ReferenceTime.start
            // The first append goes through the append routine; the next ones, to a projection the
            // instance keeps, through the kept one.
            for seed in 1...4 {
                let at = start.addingTimeInterval(Double(seed))
                #expect(try await store.append(LedgerEvents.admin(seed, appUserID: "u1", at: at, .appTrialStarted(at: at))) == .appended(sequence: Int64(seed), appUserID: "u1"))
            }
            let expected = try #require(try await store.projection(appUserID: "u1"))
            for _ in 0..<10 {
                let read = try await store.projection(appUserID: "u1", latestGlobalEvent: .openAccess)
                #expect(read.facts == expected)
                #expect(read.global == nil)
                #expect(try await store.projection(appUserID: "nobody", latestGlobalEvent: .openAccess).facts == nil)
                #expect(try await store.aliasTarget("$anon:unknown") == nil)
            }
            let runs = try await Self.prepared(store)
            #expect(runs[LedgerStatements.SubscriberRead.name] == 20)
            #expect(runs[LedgerStatements.AliasTarget.name] == 10)
            #expect(runs[LedgerStatements.ProjectionRead.name] == 1)
            #expect(runs[AppendRoutine.name] == 1)
            #expect(runs[KeptAppendRoutine.name] == 3)
            #expect(try await store.events(appUserID: "u1").count == 4)
        }
    }

    @Test("PostgreSQL: a statement whose preparation failed is prepared again on a new connection once its cause is gone")
    func failedPreparation() async throws {
        try await Self.withOneConnection { store, configuration in
            try await StorageEngine.withClient(configuration) { admin in
                try await admin.query("ALTER TABLE subscriber_aliases RENAME TO subscriber_aliases_away", logger: Self.logger)
                await #expect(throws: StorageError.self) { try await store.aliasTarget("$anon:a") }
                try await admin.query("ALTER TABLE subscriber_aliases_away RENAME TO subscriber_aliases", logger: Self.logger)
            }
            #expect(try await store.aliasTarget("$anon:a") == nil)
            #expect(try await Self.prepared(store)[LedgerStatements.AliasTarget.name] == 1)
        }
    }

    @Test(
        "PostgreSQL: a kept statement whose preparation fails in a transaction fails the append, its connection closed once the transaction rolled back; the next runs on a new one",
        .timeLimit(.minutes(1)))
    func failedPreparationInTransaction() async throws {
        try await Self.withOneConnection { store, configuration in
            let at = ReferenceTime.start
            // A subscriber this instance keeps no projection of: the append runs the append routine in a transaction.
            let event = LedgerEvents.admin(1, appUserID: "u1", at: at, .appTrialStarted(at: at))
            try await StorageEngine.withClient(configuration) { admin in
                try await admin.query("ALTER FUNCTION \(unescaped: AppendRoutine.name) RENAME TO entitle_append_away", logger: Self.logger)
                await #expect(throws: StorageError.self) { try await store.append(event) }
                try await admin.query("ALTER FUNCTION entitle_append_away RENAME TO \(unescaped: AppendRoutine.name)", logger: Self.logger)
            }
            #expect(try await store.eventCount() == 0)
            #expect(try await store.append(event) == .appended(sequence: 1, appUserID: "u1"))
            #expect(try await Self.prepared(store)[AppendRoutine.name] == 1)
        }
    }

    @Test("PostgreSQL: a kept statement whose result changes type under it fails once on its connection, then runs prepared afresh")
    func resultTypeChanged() async throws {
        try await Self.withOneConnection { store, configuration in
            #expect(try await store.aliasTarget("$anon:a") == nil)
            try await StorageEngine.withClient(configuration) { admin in
                try await admin.query("ALTER TABLE subscriber_aliases ALTER COLUMN app_user_id TYPE VARCHAR(300)", logger: Self.logger)
            }
            // PostgreSQL: "cached plan must not change result type".
            await #expect(throws: StorageError.self) { try await store.aliasTarget("$anon:a") }
            #expect(try await store.aliasTarget("$anon:a") == nil)
            #expect(try await Self.prepared(store)[LedgerStatements.AliasTarget.name] == 1)
        }
    }
}
