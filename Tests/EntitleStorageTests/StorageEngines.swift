import EntitleStorage
import Foundation
import Logging
import PostgresNIO
import Testing

/// The engines the conformance suite runs on, each giving a fresh, empty, migrated ledger per test.
enum StorageEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// Runs `body` with a fresh ledger, then removes it. PostgreSQL needs ENTITLE_TEST_POSTGRES_URL
    /// (scripts/test.sh starts a throwaway cluster and sets it); without it the test fails.
    func withStore(_ body: (any LedgerStore) async throws -> Void) async throws {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-ledger-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = try await SQLiteLedgerStore.open(path: folder.appendingPathComponent("entitle.sqlite").path)
            do {
                try await body(store)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        case .postgres:
            try await Self.withPostgresDatabase { client in
                let store = try await PostgresLedgerStore.open(client: client)
                try await body(store)
            }
        }
    }

    /// Reopens the same ledger twice in sequence: for durability checks across reopening.
    func withReopenedStore(_ first: (any LedgerStore) async throws -> Void, then second: (any LedgerStore) async throws -> Void) async throws {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-ledger-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("entitle.sqlite").path
            let one = try await SQLiteLedgerStore.open(path: path)
            try await first(one)
            await one.close()
            let two = try await SQLiteLedgerStore.open(path: path)
            try await second(two)
            await two.close()
        case .postgres:
            try await Self.withPostgresDatabase { client in
                try await first(try await PostgresLedgerStore.open(client: client))
                try await second(try await PostgresLedgerStore.open(client: client))
            }
        }
    }

    static func withPostgresDatabase(_ body: (PostgresClient) async throws -> Void) async throws {
        guard let url = ProcessInfo.processInfo.environment["ENTITLE_TEST_POSTGRES_URL"] else {
            Issue.record("ENTITLE_TEST_POSTGRES_URL is not set: run the tests with scripts/test.sh, which starts PostgreSQL")
            return
        }
        let name = "entitle_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        let adminConfiguration = try PostgresLedgerStore.configuration(url: url)
        try await withClient(adminConfiguration) { admin in
            try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        }
        var configuration = adminConfiguration
        configuration.database = name
        do {
            try await withClient(configuration, body)
        } catch {
            try? await withClient(adminConfiguration) { try await $0.query(PostgresQuery(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)")) }
            throw error
        }
        try await withClient(adminConfiguration) { try await $0.query(PostgresQuery(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)")) }
    }

    /// Runs a client for the duration of `body`, as its owning service would.
    static func withClient(_ configuration: PostgresClient.Configuration, _ body: (PostgresClient) async throws -> Void) async throws {
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
