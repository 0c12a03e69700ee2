import EntitleAnalytics
import EntitleCore
import Foundation

/// The analytics aggregates in the ledger's database, written once over ``SQLEngine``: a refresh
/// reads the events past the analytics cursor, computes each subscriber they touch from all their
/// events, adds the difference from what that subscriber added before, and advances the cursor in
/// the same transaction — so the daily aggregates always equal the sum of every subscriber's cells.
final class SQLAnalyticsStore: AnalyticsStore {
    let engine: any SQLEngine
    /// The app whose aggregates these are.
    let app: String
    let cursor: LedgerCursor

    init(engine: any SQLEngine, app: String) {
        self.engine = engine
        self.app = app
        self.cursor = LedgerCursor(app: app, consumer: "analytics")
    }

    func refreshAnalytics(
        batchSize: Int, cells: @escaping @Sendable (String, [LedgerEvent]) -> AnalyticsCells
    ) async throws(StorageError) -> Int {
        let batchSize = max(1, batchSize)
        var refreshed = Set<String>()
        let (app, cursor) = (app, cursor)
        while true {
            let horizon = try await engine.readHorizon()
            let (subscribers, events): ([String], Int) = try await engine.transaction { session throws(StorageError) in
                // One refresher at a time, so aggregate rows are updated in one order.
                try await session.lock("entitle.analytics:\(app)")
                let position = try await cursor.position(session)
                let entries = try await cursor.entries(after: position, horizon: horizon, limit: batchSize, session)
                guard let last = entries.last else { return ([], 0) }
                let ids = Set(entries.compactMap(\.appUserID)).sorted()
                try await Self.recompute(ids, app: app, cells: cells, session)
                try await cursor.advance(to: last.sequence, session)
                return (ids, entries.count)
            }
            refreshed.formUnion(subscribers)
            if events < batchSize { return refreshed.count }
        }
    }

    func recomputeAnalytics(
        batchSize: Int, cells: @escaping @Sendable (String, [LedgerEvent]) -> AnalyticsCells
    ) async throws(StorageError) -> Int {
        let batchSize = max(1, batchSize)
        // Everything up to the head is recomputed below; what comes after, the next refresh reads.
        let horizon = try await engine.readHorizon()
        let (app, cursor) = (app, cursor)
        try await engine.transaction { session throws(StorageError) in
            try await session.lock("entitle.analytics:\(app)")
            _ = try await session.execute("DELETE FROM analytics_daily WHERE app_id = ?", [.text(app)])
            _ = try await session.execute("DELETE FROM analytics_contributions WHERE app_id = ?", [.text(app)])
            let head = try await cursor.head(horizon: horizon, session)
            try await cursor.advance(to: head, session)
        }
        var after = ""
        var total = 0
        while true {
            let from = after
            let ids = try await engine.transaction { session throws(StorageError) in
                try await session.lock("entitle.analytics:\(app)")
                let ids = try await session.execute(
                    "SELECT app_user_id FROM subscribers WHERE app_id = ? AND app_user_id > ? ORDER BY app_user_id LIMIT ?",
                    [.text(app), .text(from), .integer(Int64(batchSize))]
                ).compactMap { $0["app_user_id"]?.text }
                try await Self.recompute(ids, app: app, cells: cells, session)
                return ids
            }
            let count = ids.count
            if let last = ids.last { after = last }
            total += count
            if count < batchSize { return total }
        }
    }

    /// Computes the cells of `ids` from all their events and adds the difference to the aggregates.
    private static func recompute(
        _ ids: [String], app: String, cells: @Sendable (String, [LedgerEvent]) -> AnalyticsCells, _ session: any SQLSession
    ) async throws(StorageError) {
        var delta = AnalyticsCells()
        for id in ids {
            try await session.lock(SQLLedgerStore.subscriberLock(app, id))
            let events = try SQLLedgerStore.decodeEvents(await session.execute(
                "SELECT event FROM ledger_events WHERE app_id = ? AND app_user_id = ? ORDER BY sequence", [.text(app), .text(id)]))
            let new = cells(id, events)
            let stored = try await session.execute(
                "SELECT cells FROM analytics_contributions WHERE app_id = ? AND app_user_id = ?", [.text(app), .text(id)])
            let old = try stored.first?["cells"]?.text.map { text throws(StorageError) in try Self.decodeCells(text, appUserID: id) } ?? [:]
            delta.add(new.difference(from: old))
            if new.isEmpty {
                _ = try await session.execute("DELETE FROM analytics_contributions WHERE app_id = ? AND app_user_id = ?", [.text(app), .text(id)])
            } else {
                _ = try await session.execute(
                    """
                    INSERT INTO analytics_contributions (app_id, app_user_id, cells) VALUES (?, ?, ?)
                    ON CONFLICT (app_id, app_user_id) DO UPDATE SET cells = excluded.cells
                    """, [.text(app), .text(id), .text(try Self.encodeCells(new, appUserID: id))])
            }
        }
        try await addToAggregates(delta, app: app, session)
    }

    func analyticsCells(through day: Int?) async throws(StorageError) -> AnalyticsCells {
        try await engine.read { session throws(StorageError) in
            let rows = try await session.execute(
                "SELECT day, metric, product, currency, cohort, value FROM analytics_daily WHERE app_id = ? AND day <= ?",
                [.text(app), .integer(Int64(day ?? Int(Int32.max)))])
            var cells = AnalyticsCells(minimumCapacity: rows.count)
            for row in rows {
                guard let day = row["day"]?.integer, let name = row["metric"]?.text, let metric = AnalyticsMetric(rawValue: name),
                    let value = row["value"]?.integer
                else { throw StorageError(.corruptRecord, "an analytics row has an unknown metric or no value") }
                let key = AnalyticsKey(
                    day: Int(day), metric: metric, product: row["product"]?.text ?? "", currency: row["currency"]?.text ?? "",
                    cohort: row["cohort"]?.text ?? "")
                cells[key] = value
            }
            return cells
        }
    }

    func pendingAnalytics() async throws(StorageError) -> Int {
        try await engine.read { session throws(StorageError) in
            try await cursor.backlog(after: try await cursor.position(session), session)
        }
    }

    /// Adds `delta` to the daily aggregates, in key order (so concurrent writers can't deadlock), and
    /// drops the rows that reach zero.
    private static func addToAggregates(_ delta: AnalyticsCells, app: String, _ session: any SQLSession) async throws(StorageError) {
        for (key, value) in delta.sorted(by: { $0.key < $1.key }) {
            let binds: [SQLValue] = [
                .text(app), .integer(Int64(key.day)), .text(key.metric.rawValue), .text(key.product), .text(key.currency), .text(key.cohort),
            ]
            let updated = try await session.execute(
                """
                INSERT INTO analytics_daily (app_id, day, metric, product, currency, cohort, value) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (app_id, day, metric, product, currency, cohort) DO UPDATE SET value = analytics_daily.value + excluded.value
                RETURNING value
                """, binds + [.integer(value)])
            if updated.first?["value"]?.integer == 0 {
                _ = try await session.execute(
                    "DELETE FROM analytics_daily WHERE app_id = ? AND day = ? AND metric = ? AND product = ? AND currency = ? AND cohort = ?", binds)
            }
        }
    }

    /// A subscriber's cells as stored: `[day, metric, product, currency, cohort, value]` rows in JSON.
    private struct StoredCell: Codable {
        var d: Int
        var m: String
        var p: String
        var c: String
        var h: String
        var v: Int64
    }

    static func encodeCells(_ cells: AnalyticsCells, appUserID: String) throws(StorageError) -> String {
        let rows = cells.sorted { $0.key < $1.key }.map {
            StoredCell(d: $0.key.day, m: $0.key.metric.rawValue, p: $0.key.product, c: $0.key.currency, h: $0.key.cohort, v: $0.value)
        }
        do {
            return String(decoding: try SQLLedgerStore.encoder.encode(rows), as: UTF8.self)
        } catch {
            throw StorageError(.corruptRecord, "the analytics cells of \(appUserID) do not encode", underlying: error)
        }
    }

    static func decodeCells(_ text: String, appUserID: String) throws(StorageError) -> AnalyticsCells {
        let rows: [StoredCell]
        do {
            rows = try SQLLedgerStore.decoder().decode([StoredCell].self, from: Data(text.utf8))
        } catch {
            throw StorageError(.corruptRecord, "the analytics cells of \(appUserID) do not decode", underlying: error)
        }
        var cells = AnalyticsCells(minimumCapacity: rows.count)
        for row in rows {
            guard let metric = AnalyticsMetric(rawValue: row.m) else {
                throw StorageError(.corruptRecord, "the analytics cells of \(appUserID) name an unknown metric \(row.m)")
            }
            cells[AnalyticsKey(day: row.d, metric: metric, product: row.p, currency: row.c, cohort: row.h)] = row.v
        }
        return cells
    }
}
