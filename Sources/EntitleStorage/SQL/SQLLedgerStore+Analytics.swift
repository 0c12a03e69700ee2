import EntitleAnalytics
import EntitleCore
import Foundation

/// The analytics aggregates, maintained beside the ledger: projection writes mark the subscriber
/// pending; a refresh computes each pending subscriber's cells and adds the difference from what it
/// added before, so the daily aggregates always equal the sum of every subscriber's cells.
extension SQLLedgerStore {
    func refreshAnalytics(
        batchSize: Int, cells: @escaping @Sendable (String, [LedgerEvent]) -> AnalyticsCells
    ) async throws(StorageError) -> Int {
        let batchSize = max(1, batchSize)
        var total = 0
        while true {
            let refreshed = try await engine.transaction { session throws(StorageError) in
                // One refresher at a time, so aggregate rows are updated in one order.
                try await session.lock("entitle.analytics")
                let ids = try await session.execute(
                    "SELECT app_user_id FROM analytics_pending ORDER BY app_user_id LIMIT ?", [.integer(Int64(batchSize))]
                ).compactMap { $0["app_user_id"]?.text }
                var delta = AnalyticsCells()
                for id in ids {
                    try await session.lock("subscriber:\(id)")
                    let events = try Self.decodeEvents(await session.execute(
                        "SELECT event FROM ledger_events WHERE app_user_id = ? ORDER BY sequence", [.text(id)]))
                    let new = cells(id, events)
                    let stored = try await session.execute("SELECT cells FROM analytics_contributions WHERE app_user_id = ?", [.text(id)])
                    let old = try stored.first?["cells"]?.text.map { text throws(StorageError) in try Self.decodeCells(text, appUserID: id) } ?? [:]
                    delta.add(new.difference(from: old))
                    if new.isEmpty {
                        _ = try await session.execute("DELETE FROM analytics_contributions WHERE app_user_id = ?", [.text(id)])
                    } else {
                        _ = try await session.execute(
                            """
                            INSERT INTO analytics_contributions (app_user_id, cells) VALUES (?, ?)
                            ON CONFLICT (app_user_id) DO UPDATE SET cells = excluded.cells
                            """, [.text(id), .text(try Self.encodeCells(new, appUserID: id))])
                    }
                    _ = try await session.execute("DELETE FROM analytics_pending WHERE app_user_id = ?", [.text(id)])
                }
                try await Self.addToAggregates(delta, session)
                return ids.count
            }
            total += refreshed
            if refreshed < batchSize { return total }
        }
    }

    func recomputeAnalytics(
        batchSize: Int, cells: @escaping @Sendable (String, [LedgerEvent]) -> AnalyticsCells
    ) async throws(StorageError) -> Int {
        try await engine.transaction { session throws(StorageError) in
            try await session.lock("entitle.analytics")
            _ = try await session.execute("DELETE FROM analytics_daily", [])
            _ = try await session.execute("DELETE FROM analytics_contributions", [])
            _ = try await session.execute(
                """
                INSERT INTO analytics_pending (app_user_id) SELECT app_user_id FROM subscribers WHERE true
                ON CONFLICT (app_user_id) DO NOTHING
                """, [])
        }
        return try await refreshAnalytics(batchSize: batchSize, cells: cells)
    }

    func analyticsCells(through day: Int?) async throws(StorageError) -> AnalyticsCells {
        try await engine.read { session throws(StorageError) in
            let rows = try await session.execute(
                "SELECT day, metric, product, currency, cohort, value FROM analytics_daily WHERE day <= ?",
                [.integer(Int64(day ?? Int(Int32.max)))])
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
            Int(try await session.execute("SELECT COUNT(*) AS n FROM analytics_pending", []).first?["n"]?.integer ?? 0)
        }
    }

    /// Adds `delta` to the daily aggregates, in key order (so concurrent writers can't deadlock), and
    /// drops the rows that reach zero.
    private static func addToAggregates(_ delta: AnalyticsCells, _ session: any SQLSession) async throws(StorageError) {
        for (key, value) in delta.sorted(by: { $0.key < $1.key }) {
            let binds: [SQLValue] = [
                .integer(Int64(key.day)), .text(key.metric.rawValue), .text(key.product), .text(key.currency), .text(key.cohort),
            ]
            let updated = try await session.execute(
                """
                INSERT INTO analytics_daily (day, metric, product, currency, cohort, value) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (day, metric, product, currency, cohort) DO UPDATE SET value = analytics_daily.value + excluded.value
                RETURNING value
                """, binds + [.integer(value)])
            if updated.first?["value"]?.integer == 0 {
                _ = try await session.execute(
                    "DELETE FROM analytics_daily WHERE day = ? AND metric = ? AND product = ? AND currency = ? AND cohort = ?", binds)
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
            return String(decoding: try encoder.encode(rows), as: UTF8.self)
        } catch {
            throw StorageError(.corruptRecord, "the analytics cells of \(appUserID) do not encode", underlying: error)
        }
    }

    static func decodeCells(_ text: String, appUserID: String) throws(StorageError) -> AnalyticsCells {
        let rows: [StoredCell]
        do {
            rows = try decoder().decode([StoredCell].self, from: Data(text.utf8))
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
