import EntitleStorage
import Foundation
import Logging
import PostgresNIO

/// The engines the conformance suite runs on, each giving a fresh, empty, migrated ledger per test.
public enum StorageEngine: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgres
    /// The ledger in memory (``MemoryLedgerStore``): held to the same conformance suite, and what the
    /// tests of services run on.
    case memory

    /// The engines with a database behind them (SQL), for what only they have (a schema, statements, reopening a file).
    public static let databases: [StorageEngine] = [.sqlite, .postgres]

    public var description: String { rawValue }

    /// The environment variable naming the PostgreSQL server the tests create their databases on.
    public static let postgresURLVariable = "ENTITLE_TEST_POSTGRES_URL"

    /// Thrown when PostgreSQL is asked for but no server is configured.
    public struct PostgresNotConfigured: Error, CustomStringConvertible {
        public var description: String {
            "\(StorageEngine.postgresURLVariable) is not set: run the tests with scripts/test.sh, which starts PostgreSQL"
        }
    }

    /// Runs `body` with a fresh ledger (on SQLite a copy of one migrated once), then removes it.
    /// PostgreSQL needs ENTITLE_TEST_POSTGRES_URL (scripts/test.sh starts a throwaway cluster and sets
    /// it); without it the test fails.
    public func withStore(_ body: (any LedgerStore) async throws -> Void) async throws {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-ledger-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("entitle.sqlite")
            try await SQLiteTemplate.copy(to: file)
            let store = try await SQLiteLedgerStore.open(path: file.path)
            do {
                try await body(store)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        case .postgres:
            try await Self.withPostgresDatabase(migrated: true) { client in
                let store = try await PostgresLedgerStore.open(client: client)
                try await body(store)
            }
        case .memory:
            try await body(MemoryLedgerStore())
        }
    }

    /// Reopens the same ledger twice in sequence: for durability checks across reopening.
    public func withReopenedStore(_ first: (any LedgerStore) async throws -> Void, then second: (any LedgerStore) async throws -> Void) async throws {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-ledger-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("entitle.sqlite")
            try await SQLiteTemplate.copy(to: file)
            let path = file.path
            let one = try await SQLiteLedgerStore.open(path: path)
            try await first(one)
            await one.close()
            let two = try await SQLiteLedgerStore.open(path: path)
            try await second(two)
            await two.close()
        case .postgres:
            try await Self.withPostgresDatabase(migrated: true) { client in
                try await first(try await PostgresLedgerStore.open(client: client))
                try await second(try await PostgresLedgerStore.open(client: client))
            }
        case .memory:
            // The same database, as a new process of a server whose database outlives it would see it.
            let database = MemoryDatabase()
            try await first(MemoryLedgerStore(database: database))
            try await second(MemoryLedgerStore(database: database))
        }
    }

    /// The configuration of the test cluster's server (its `postgres` database), from
    /// ENTITLE_TEST_POSTGRES_URL.
    public static func testClusterConfiguration() throws -> PostgresClient.Configuration {
        guard let url = ProcessInfo.processInfo.environment[postgresURLVariable] else { throw PostgresNotConfigured() }
        return try PostgresLedgerStore.configuration(url: url)
    }

    /// Runs `body` with a client on a fresh database (``withPostgresDatabaseConfiguration(migrated:_:)``).
    public static func withPostgresDatabase(migrated: Bool = false, _ body: (PostgresClient) async throws -> Void) async throws {
        try await withPostgresDatabaseConfiguration(migrated: migrated) { configuration in
            try await withClient(configuration, body)
        }
    }

    /// A fresh database for the duration of `body`, which gets its configuration (so that several
    /// clients, like several server instances, can share it). Empty (created, then dropped), or
    /// `migrated`: the ledger's schema at its latest version with no rows, as opening the empty one
    /// would leave it, borrowed from ``PostgresTestDatabases``.
    public static func withPostgresDatabaseConfiguration(migrated: Bool = false, _ body: (PostgresClient.Configuration) async throws -> Void) async throws {
        guard let url = ProcessInfo.processInfo.environment[postgresURLVariable] else { throw PostgresNotConfigured() }
        let adminConfiguration = try PostgresLedgerStore.configuration(url: url)
        if migrated {
            try await PostgresTestDatabases.shared.withDatabase(admin: adminConfiguration, body)
            return
        }
        let name = "entitle_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        try await withClient(adminConfiguration) { admin in
            try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        }
        var configuration = adminConfiguration
        configuration.database = name
        do {
            try await body(configuration)
        } catch {
            try? await withClient(adminConfiguration) { try await $0.query(PostgresQuery(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)")) }
            throw error
        }
        try await withClient(adminConfiguration) { try await $0.query(PostgresQuery(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)")) }
    }

    /// Runs a client for the duration of `body`, as its owning service would.
    public static func withClient(_ configuration: PostgresClient.Configuration, _ body: (PostgresClient) async throws -> Void) async throws {
        let client = PostgresClient(configuration: configuration, backgroundLogger: Logger(label: "entitle.tests.postgres"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            do {
                try await body(client)
            } catch {
                group.cancelAll()
                throw error
            }
            group.cancelAll()
        }
    }
}
