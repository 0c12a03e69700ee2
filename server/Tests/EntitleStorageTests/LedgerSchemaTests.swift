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
                    [.text(user.rawValue), .text(projection), .integer(Int64(rows.count))])
                _ = try await session.execute("INSERT INTO analytics_pending (app_user_id) VALUES (?)", [.text(user.rawValue)])
            }
        }
    }

    @Test("a version 3 ledger migrates in place: projections equal a rebuild, analytics read every event once", arguments: StorageEngine.databases)
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
            // Events stored with their signed payload inside the JSON still come back whole.
            for user in Set(events.compactMap(\.appUserID)) {
                #expect(try await store.events(appUserID: user) == events.filter { $0.appUserID == user })
            }
            var live: [AppUserID: SubscriberFacts] = [:]
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
        case .memory:
            Issue.record("a memory ledger has no database: this test runs on StorageEngine.databases")
        }
    }

    @Test("aggregate rows at zero are deleted through their own index, not by reading the app's other rows")
    func zeroAggregatesIndex() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-zero-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try #require(
            try await SQLiteLedgerStore.open(path: folder.appendingPathComponent("entitle.sqlite").path, logger: Logger(label: "zero")) as? SQLLedgerStore)
        do {
            let plan = try await store.engine.read { session throws(StorageError) in
                try await session.execute("EXPLAIN QUERY PLAN " + SQLAnalyticsStore.zeroAggregatesDeletion, [.text("app")])
            }.compactMap { try $0.nullableText("detail") }
            #expect(plan == ["SEARCH analytics_daily USING INDEX analytics_daily_zero (app_id=?)"])
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    /// The column's storage and, for each stored row, whether its signed payload was kept compressed.
    static func payloadStorage(_ client: PostgresClient) async throws -> (storage: String, compressed: [Bool]) {
        var storage = ""
        for try await value in try await client.query(
            "SELECT attstorage::text FROM pg_attribute WHERE attrelid = 'ledger_events'::regclass AND attname = 'signed_payload'",
            logger: Logger(label: "v16")
        ).decode(String.self) { storage = value }
        var compressed: [Bool] = []
        for try await (stored, length) in try await client.query(
            "SELECT pg_column_size(signed_payload), octet_length(signed_payload) FROM ledger_events ORDER BY sequence", logger: Logger(label: "v16")
        ).decode((Int32, Int32).self) { compressed.append(stored < length) }
        return (storage, compressed)
    }

    @Test("PostgreSQL: from schema version 16 signed payloads are stored as they are, without an attempt at compressing them; older rows read as before")
    func uncompressedPayloads() async throws {
        // Base64url text that does compress, unlike a real JWS: where PostgreSQL would try, it shows.
        let payload = String(repeating: "eyJhbGciOiJFUzI1NiIsIng1YyI6WyJNSUlF", count: 400)
        let event: @Sendable (Int, AppUserID) -> LedgerEvent = { seed, user in
            var event = LedgerEvents.admin(seed, appUserID: user, at: ReferenceTime.start, .appTrialStarted(at: ReferenceTime.start))
            event.rawSignedPayload = payload
            return event
        }
        try await StorageEngine.withPostgresDatabase { client in
            let store = try #require(PostgresLedgerStore.store(client: client, logger: Logger(label: "v16")) as? SQLLedgerStore)
            try await store.migrate(through: 15)
            // As version 15 stored an event (its routines come with the latest version only).
            var plain = event(1, "before")
            plain.rawSignedPayload = nil
            let stored = try StoredJSON.encoder.encode(plain)
            try await client.query("""
                INSERT INTO ledger_events (id, app_id, idempotency_key, app_user_id, source, received_at, event, signed_payload)
                VALUES ('e1', '', 'k1', 'before', 'admin', 0, \(String(decoding: stored, as: UTF8.self)), \(payload))
                """, logger: Logger(label: "v16"))
            let before = try await Self.payloadStorage(client)
            #expect(before.storage == "x")
            #expect(before.compressed == [true])

            try await store.migrate()
            _ = try await store.append(event(2, "after"))
            let after = try await Self.payloadStorage(client)
            #expect(after.storage == "e")
            #expect(after.compressed == [true, false])
            for user: AppUserID in ["before", "after"] {
                #expect(try await store.events(appUserID: user).map(\.rawSignedPayload) == [payload])
            }
        }
    }

    /// `Tests/Fixtures/Databases/v4-screentimerewards.sqlite`: written by `entitle demo` at schema version
    /// 4 (ScreenTime Rewards, 30 people over 4 months, a grant, an override, a household, an Ask to Buy
    /// request, the open-access switch, analytics refreshed): 81 events, 31 subscribers.
    static let version4 = Fixtures.root.appendingPathComponent("Tests/Fixtures/Databases/v4-screentimerewards.sqlite")

    @Test("a version 4 database file migrates in place: its rows become the configured app's, equal to a rebuild, analytics included")
    func fromVersion4File() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-v4-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("entitle.sqlite").path
        try FileManager.default.copyItem(atPath: Self.version4.path, toPath: path)

        let root = try #require(try await SQLiteLedgerStore.openUnmigrated(path: path, logger: Logger(label: "v4")) as? SQLLedgerStore)
        do {
            let store = root.forApp("com.screentimerewards")
            try await store.migrate()
            #expect(try await root.subscriberIDs().isEmpty, "nothing is left unassigned")
            #expect(try await store.eventCount() == 81)
            let ids = try await store.subscriberIDs()
            #expect(ids.count == 31)
            var live: [AppUserID: SubscriberFacts] = [:]
            for id in ids {
                let projection = try await store.projection(appUserID: id)
                #expect(projection == SubscriberFacts.fold(appUserID: id, events: try await store.events(appUserID: id)))
                live[id] = projection
            }
            #expect(try await store.rebuildProjections() == 31)
            for id in ids { #expect(try await store.projection(appUserID: id) == live[id]) }

            // The aggregates and the cursor came along: nothing to read. They were computed under earlier
            // definitions: the server's first refresh recomputes them once, and they equal a recompute.
            let analytics = store.analyticsStore()
            let cells: @Sendable (AppUserID, [LedgerEvent]) -> AnalyticsCells = { id, events in
                AnalyticsContributor(catalog: Fixtures.exampleCatalog("ScreenTimeRewards")).cells(appUserID: id, events: events)
            }
            #expect(try await analytics.pendingAnalytics() == 0)
            #expect(!(try await analytics.analyticsCells(through: nil)).isEmpty)
            #expect(try await analytics.startRecompute(unlessDefinitionsAre: AnalyticsContributor.definitionsVersion))
            #expect(try await analytics.finishRecompute(batchSize: 10, cells: cells) == 31)
            #expect(!(try await analytics.startRecompute(unlessDefinitionsAre: AnalyticsContributor.definitionsVersion)))
            let migrated = try await analytics.analyticsCells(through: nil)
            #expect(migrated.keys.contains { $0.metric == .arrivals })
            _ = try await analytics.recomputeAnalytics(batchSize: 10, cells: cells)
            #expect(try await analytics.analyticsCells(through: nil) == migrated)

            // Appends continue after the migrated sequences, and a second start changes nothing.
            guard case .appended(let sequence, _) = try await store.append(
                LedgerEvents.admin(9_999, appUserID: "new", at: ReferenceTime.start, .appTrialStarted(at: ReferenceTime.start)))
            else {
                Issue.record("an append after the migration must append")
                return
            }
            #expect(sequence > 81)
            try await store.migrate()
            #expect(try await store.eventCount() == 82)
        } catch {
            await root.close()
            throw error
        }
        await root.close()
    }

    @Test("a version 4 ledger on either engine: a server's first app adopts its rows; another app sees none", arguments: StorageEngine.databases)
    func adoption(engine: StorageEngine) async throws {
        var ids = Set<UUID>()
        let events = Array(LedgerFold.ordered(AnalyticsLedger.events).filter { $0.appUserID != nil && ids.insert($0.id).inserted }.prefix(30))
        let check: @Sendable (SQLLedgerStore) async throws -> Void = { root in
            try await Self.writeVersion3(root, events: events)
            try await root.migrate(through: 4)
            let app = root.forApp("com.example.first")
            try await app.migrate()
            let other = root.forApp("com.example.second")
            try await other.migrate()
            #expect(try await app.eventCount() == events.count)
            #expect(try await other.eventCount() == 0)
            #expect(try await other.subscriberIDs().isEmpty)
            for id in try await app.subscriberIDs() {
                #expect(try await app.projection(appUserID: id) == SubscriberFacts.fold(appUserID: id, events: events.filter { $0.appUserID == id }))
            }
            let next = LedgerEvents.admin(9_998, appUserID: "new", at: ReferenceTime.start, .appTrialStarted(at: ReferenceTime.start))
            guard case .appended(let sequence, _) = try await other.append(next) else {
                Issue.record("an append after the migration must append")
                return
            }
            #expect(sequence > Int64(events.count))
        }
        switch engine {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-adopt-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = try #require(
                try await SQLiteLedgerStore.openUnmigrated(path: folder.appendingPathComponent("entitle.sqlite").path, logger: Logger(label: "v4"))
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
                try await check(try #require(PostgresLedgerStore.store(client: client, logger: Logger(label: "v4")) as? SQLLedgerStore))
            }
        case .memory:
            Issue.record("a memory ledger has no database: this test runs on StorageEngine.databases")
        }
    }
}
