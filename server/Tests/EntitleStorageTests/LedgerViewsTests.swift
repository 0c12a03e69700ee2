import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@testable import EntitleStorage

/// The read-only SQL views over the ledger (schema 27, docs/exports.md), on both SQL engines.
@Suite("Ledger SQL views")
struct LedgerViewsTests {
    static func text(_ store: SQLLedgerStore, _ sql: String) async throws -> [[String: String]] {
        try await store.engine.read { session throws(StorageError) in
            try await session.execute(sql, []).map { row throws(StorageError) in
                var values: [String: String] = [:]
                for column in ["n", "a", "b", "c", "d"] where row.has(column) { values[column] = try row.nullableText(column) ?? "NULL" }
                return values
            }
        }
    }

    @Test("events, purchases, subscribers, analytics and deliveries read as the tables hold them, instants and days as such", arguments: StorageEngine.databases)
    func views(engine: StorageEngine) async throws {
        try await engine.withStore { root in
            let store = try #require(root.forApp("com.example.one") as? SQLLedgerStore)
            for event in LedgerStoreConformanceTests.history(user: "u1", original: "1000", seedBase: 0) { _ = try await store.append(event) }
            try await store.engine.transaction { session throws(StorageError) in
                _ = try await session.execute(
                    "INSERT INTO analytics_daily (app_id, day, metric, product, currency, cohort, value) VALUES ('com.example.one', 20454, 'sandbox:mrr', 'p', 'USD', '', 1299)", [])
            }
            let events = try await Self.text(store, """
                SELECT CAST(COUNT(*) AS TEXT) AS n, CAST(MIN(received_at) AS TEXT) AS a, MIN(source) AS b FROM entitle_events
                WHERE app_id = 'com.example.one' AND app_user_id = 'u1'
                """)
            #expect(events.first?["n"] == "13")
            #expect(events.first?["a"]?.hasPrefix("2026-01-05") == true, "\(events)")
            let purchases = try await Self.text(store, "SELECT original_transaction_id AS a, app_user_id AS b FROM entitle_purchases WHERE app_id = 'com.example.one'")
            #expect(purchases == [["a": "1000", "b": "u1"]])
            let subscribers = try await Self.text(
                store, "SELECT app_user_id AS a, CAST(erased AS TEXT) AS b, CAST(event_count AS TEXT) AS c FROM entitle_subscribers WHERE app_id = 'com.example.one'")
            #expect(subscribers == [["a": "u1", "b": "0", "c": "13"]])
            let analytics = try await Self.text(
                store, "SELECT CAST(day AS TEXT) AS a, environment AS b, metric AS c, CAST(value AS TEXT) AS d FROM entitle_analytics_daily WHERE app_id = 'com.example.one'")
            #expect(analytics == [["a": "2026-01-01", "b": "sandbox", "c": "mrr", "d": "1299"]])
            let deliveries = try await Self.text(store, "SELECT CAST(COUNT(*) AS TEXT) AS n FROM entitle_webhook_deliveries")
            #expect(deliveries == [["n": "0"]])
        }
    }
}
