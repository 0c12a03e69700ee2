import AppStoreModels
import EntitleAnalytics
import EntitleCore
import EntitleTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import EntitleStorage

@Suite("LedgerCursor")
struct LedgerCursorTests {
    static let catalog = Fixtures.exampleCatalog("ScreenTimeRewards")
    static let logger = Logger(label: "entitle.tests.cursor")
    static let cells: @Sendable (AppUserID, [LedgerEvent]) -> AnalyticsCells = { id, events in
        AnalyticsContributor(catalog: catalog).cells(appUserID: id, events: events)
    }

    static func purchase(_ seed: Int, user: AppUserID) -> LedgerEvent {
        let start = AnalyticsLedger.at("2026-01-05T12:00:00Z")
        let transaction = AppleFacts().subscription(
            AnalyticsLedger.individual, original: "C\(seed)", id: "C\(seed)-1", purchase: start, expires: ISODuration(months: 1).added(to: start))
        return LedgerEvents.appTransaction(seed, appUserID: user, transaction)
    }

    @Test("the analytics cursor is durable: what was read is not read again after reopening, what was not is", arguments: StorageEngine.allCases)
    func durable(engine: StorageEngine) async throws {
        try await engine.withReopenedStore { store in
            _ = try await store.append(Self.purchase(1, user: "a"))
            #expect(try await store.analyticsStore().pendingAnalytics() == 1)
            #expect(try await store.analyticsStore().refreshAnalytics(batchSize: 10, cells: Self.cells) == 1)
            _ = try await store.append(Self.purchase(2, user: "b"))
        } then: { (store: any LedgerStore) async throws in
            let analytics = store.analyticsStore()
            #expect(try await analytics.pendingAnalytics() == 1)
            #expect(try await analytics.refreshAnalytics(batchSize: 10, cells: Self.cells) == 1, "only b is read again")
            #expect(try await analytics.pendingAnalytics() == 0)
            let expected = Self.cells("a", [Self.purchase(1, user: "a")]).adding(Self.cells("b", [Self.purchase(2, user: "b")]))
            #expect(try await analytics.analyticsCells(through: nil) == expected)
        }
    }

    @Test("PostgreSQL: a refresh never passes an event that commits after one with a larger sequence")
    func commitOrder() async throws {
        try await StorageEngine.withPostgresDatabaseConfiguration(migrated: true) { configuration in
            try await StorageEngine.withClient(configuration) { client in
                let store = try await PostgresLedgerStore.open(client: client)
                let analytics = store.analyticsStore()
                // The slow writer appends as every append does: the guard, then the insert.
                let guardStatement = try #require((store as? SQLLedgerStore)?.engine.appendGuardStatement)
                let early = Self.purchase(1, user: "early")
                let encoder = JSONEncoder()
                encoder.dateEncodingStrategy = .millisecondsSince1970
                let json = String(decoding: try encoder.encode(early), as: UTF8.self)
                try await StorageEngine.withClient(configuration) { writer in
                    try await writer.withConnection { connection in
                        // The writer takes its sequence, and is slow to commit.
                        try await connection.query("BEGIN", logger: Self.logger)
                        try await connection.query(PostgresQuery(unsafeSQL: guardStatement), logger: Self.logger)
                        try await connection.query(
                            """
                            INSERT INTO ledger_events (id, app_id, idempotency_key, app_user_id, source, transaction_id, original_transaction_id,
                                signed_date, received_at, event)
                            VALUES (\(early.id.uuidString), '', \(early.idempotencyKey), 'early', 'app_transaction', 'C1-1', 'C1', 0, 0, \(json))
                            """, logger: Self.logger)
                        // Meanwhile a later event commits with a larger sequence, and analytics refreshes.
                        _ = try await store.append(Self.purchase(2, user: "late"))
                        async let refreshed = analytics.refreshAnalytics(batchSize: 10, cells: Self.cells)
                        try await Task.sleep(for: .milliseconds(300))
                        try await connection.query("COMMIT", logger: Self.logger)
                        _ = try await refreshed
                    }
                }
                _ = try await analytics.refreshAnalytics(batchSize: 10, cells: Self.cells)
                let expected = Self.cells("early", [early]).adding(Self.cells("late", [Self.purchase(2, user: "late")]))
                #expect(try await analytics.analyticsCells(through: nil) == expected, "the slow writer's event is counted")
                #expect(try await analytics.pendingAnalytics() == 0)
            }
        }
    }
}

extension AnalyticsCells {
    func adding(_ other: AnalyticsCells) -> AnalyticsCells {
        var sum = self
        sum.add(other)
        return sum
    }
}
