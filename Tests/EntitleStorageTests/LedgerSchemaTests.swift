import AppStoreModels
import EntitleAnalytics
import EntitleCore
import EntitleTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import EntitleStorage

@Suite("LedgerSchema")
struct LedgerSchemaTests {
    /// A ledger at schema version 3 (pending marks for analytics, no commit order), written as that
    /// version wrote it: two subscribers' events, their projections, one of them refreshed.
    static func writeVersion3(_ store: SQLLedgerStore, events: [LedgerEvent]) async throws {
        try await store.migrate(through: 3)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        for user in Set(events.compactMap(\.appUserID)) {
            let mine = events.filter { $0.appUserID == user }
            let projection = String(decoding: try encoder.encode(SubscriberFacts.fold(appUserID: user, events: mine)), as: UTF8.self)
            let rows = try mine.map { event in (event, String(decoding: try encoder.encode(event), as: UTF8.self)) }
            try await store.engine.transaction { session throws(StorageError) in
                for (event, json) in rows {
                    _ = try await session.execute(
                        """
                        INSERT INTO ledger_events (id, idempotency_key, app_user_id, source, transaction_id, original_transaction_id,
                            signed_date, received_at, event) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                        [
                            .text(event.id.uuidString), .text(event.idempotencyKey), SQLValue(event.appUserID), .text(event.source.rawValue),
                            SQLValue(event.transactionID), SQLValue(event.originalTransactionID), SQLValue(event.signedDate),
                            SQLValue(event.receivedAt), .text(json),
                        ])
                }
                _ = try await session.execute(
                    "INSERT INTO subscribers (app_user_id, projection, event_count, updated_at) VALUES (?, ?, ?, 0)",
                    [.text(user), .text(projection), .integer(Int64(rows.count))])
                _ = try await session.execute("INSERT INTO analytics_pending (app_user_id) VALUES (?)", [.text(user)])
            }
        }
    }

    @Test("a version 3 ledger migrates in place: projections equal a rebuild, analytics read every event once", arguments: StorageEngine.allCases)
    func fromVersion3(engine: StorageEngine) async throws {
        var ids = Set<UUID>()
        let events = Array(LedgerFold.ordered(AnalyticsLedger.events).filter { $0.appUserID != nil && ids.insert($0.id).inserted }.prefix(40))
        let expected = LedgerStoreConformanceTests.expectedCells(events)
        let check: @Sendable (SQLLedgerStore) async throws -> Void = { store in
            try await Self.writeVersion3(store, events: events)
            try await store.migrate()
            let analytics = store.analyticsStore()
            #expect(try await analytics.pendingAnalytics() == events.count)
            _ = try await analytics.refreshAnalytics(batchSize: 7, cells: { id, events in
                AnalyticsContributor(catalog: LedgerStoreConformanceTests.analyticsCatalog).cells(appUserID: id, events: events)
            })
            #expect(try await analytics.pendingAnalytics() == 0)
            #expect(try await analytics.analyticsCells(through: nil) == expected)
            var live: [String: SubscriberFacts] = [:]
            for id in try await store.subscriberIDs() { live[id] = try await store.projection(appUserID: id) }
            _ = try await store.rebuildProjections()
            for id in try await store.subscriberIDs() { #expect(try await store.projection(appUserID: id) == live[id]) }
            // New events append as before, after the migrated ones.
            let next = LedgerEvents.admin(9_999, appUserID: "new", at: ReferenceTime.start, .appTrialStarted(at: ReferenceTime.start))
            guard case .appended = try await store.append(next) else {
                Issue.record("an append after the migration must append")
                return
            }
        }
        switch engine {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-v3-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = try #require(
                try await SQLiteLedgerStore.openUnmigrated(path: folder.appendingPathComponent("entitle.sqlite").path, logger: Logger(label: "v3"))
                    as? SQLLedgerStore)
            do {
                try await check(store)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        case .postgres:
            try await StorageEngine.withPostgresDatabase { client in
                try await check(try #require(PostgresLedgerStore.store(client: client, logger: Logger(label: "v3")) as? SQLLedgerStore))
            }
        }
    }
}
