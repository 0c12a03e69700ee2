import EntitleCore
import Foundation

/// Rebuilding every projection from the ledger (``ProjectionStore/rebuildProjections(keepingDifferences:)``)
/// in pages of subscribers, two at a time: a page's events are read in one range scan and folded
/// outside any write, then stored in one transaction that first checks no event arrived meanwhile (a
/// subscriber whose events changed is folded again inside it). Memory holds two pages, whatever the
/// ledger's size.
extension SQLLedgerStore {
    /// Subscribers per page.
    static let rebuildPage = 256

    func rebuildProjections() async throws(StorageError) -> Int {
        try await rebuildProjections(keepingDifferences: 0).rebuilt
    }

    func rebuildProjections(keepingDifferences limit: Int) async throws(StorageError) -> ProjectionRebuild {
        let app = app
        var report = ProjectionRebuild()
        var after: AppUserID?
        var pending: Task<ProjectionRebuild, any Error>?
        defer { pending?.cancel() }
        while true {
            let cursor = after?.rawValue ?? ""
            let ids = try await engine.read { session throws(StorageError) in
                try await session.execute(
                    """
                    SELECT DISTINCT app_user_id FROM ledger_events WHERE app_id = ? AND app_user_id IS NOT NULL AND app_user_id > ?
                    ORDER BY app_user_id LIMIT \(Self.rebuildPage)
                    """, [.id(app), .text(cursor)]
                ).map { row throws(StorageError) in try row.id("app_user_id", as: AppUserID.self) }
            }
            guard let last = ids.last else { break }
            after = last
            // One page folds while the previous one is written.
            let page = Task { () throws -> ProjectionRebuild in try await self.rebuild(page: ids, keepingDifferences: limit) }
            if let previous = pending { report.add(try await Self.value(of: previous), keepingDifferences: limit) }
            pending = page
        }
        if let previous = pending {
            pending = nil
            report.add(try await Self.value(of: previous), keepingDifferences: limit)
        }
        return report
    }

    private static func value(of task: Task<ProjectionRebuild, any Error>) async throws(StorageError) -> ProjectionRebuild {
        do {
            return try await task.value
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError(.queryFailed, "rebuilding projections failed: \(error)", underlying: error)
        }
    }

    /// Folds and stores the projections of `ids` (sorted, consecutive subscribers of the app).
    private func rebuild(page ids: [AppUserID], keepingDifferences limit: Int) async throws(StorageError) -> ProjectionRebuild {
        guard let first = ids.first, let last = ids.last else { return ProjectionRebuild() }
        let app = app
        let range: [SQLValue] = [.id(app), .id(first), .id(last)]
        let read = try await engine.read { session throws(StorageError) in
            let rows = try await session.execute(
                """
                SELECT app_user_id, sequence, event FROM ledger_events WHERE app_id = ? AND app_user_id >= ? AND app_user_id <= ?
                ORDER BY app_user_id, sequence
                """, range)
            return try Self.folds(rows)
        }
        return try await engine.transaction { session throws(StorageError) in
            var folds = read
            try await session.lock(ids.map { LedgerLock.subscriber(app, $0) })
            // Events that arrived since the read: those subscribers are folded again, under their locks.
            let latest = try await session.execute(
                """
                SELECT app_user_id, MAX(sequence) AS sequence FROM ledger_events WHERE app_id = ? AND app_user_id >= ? AND app_user_id <= ?
                GROUP BY app_user_id
                """, range)
            for row in latest {
                guard let id: AppUserID = try row.nullableID("app_user_id"), try row.nullableInteger("sequence") != folds[id]?.sequence else { continue }
                let rows = try await session.execute(
                    "SELECT app_user_id, sequence, event FROM ledger_events WHERE app_id = ? AND app_user_id = ? ORDER BY sequence", [.id(app), .id(id)])
                if let fold = try Self.folds(rows)[id] { folds[id] = fold }
            }
            let list = SQLValue.inList(folds.keys.sorted().map { SQLValue.id($0) })
            var stored: [AppUserID: String] = [:]
            for row in try await session.execute(
                "SELECT app_user_id, projection FROM subscribers WHERE app_id = ? AND app_user_id IN \(list.placeholders)", [.id(app)] + list.values)
            {
                if let id: AppUserID = try row.nullableID("app_user_id"), let json = try row.nullableText("projection") { stored[id] = json }
            }
            _ = try await session.execute(
                "DELETE FROM subscribers WHERE app_id = ? AND app_user_id IN \(list.placeholders)", [.id(app)] + list.values)
            let written = try await self.rows.insertProjections(
                folds.keys.sorted().compactMap { id in folds[id].map { (id, $0.facts, $0.events, $0.latest) } }, app: app, session)
            var report = ProjectionRebuild()
            for (id, json) in written {
                guard let fold = folds[id] else { continue }
                report.rebuilt += 1
                report.events += fold.events
                // The same text is the same facts; other text (an older writer's) is compared decoded.
                if let previous = stored[id], previous != json,
                    try StoredJSON.decodeProjection(previous, appUserID: id) != fold.facts
                {
                    report.differed += 1
                    if report.firstDiffering.count < limit { report.firstDiffering.append(id) }
                } else if stored[id] == nil {
                    report.differed += 1
                    if report.firstDiffering.count < limit { report.firstDiffering.append(id) }
                }
            }
            return report
        }
    }

    /// Each subscriber's fold of `rows` (app_user_id, sequence, event; in that order).
    private static func folds(_ rows: [SQLRow]) throws(StorageError) -> [AppUserID: Fold] {
        let events = try StoredJSON.decodeEvents(rows)
        var folds: [AppUserID: Fold] = [:]
        var start = 0
        while start < rows.count {
            guard let id: AppUserID = try rows[start].nullableID("app_user_id") else { throw StorageError(.corruptRecord, "a ledger row has no owner") }
            var end = start + 1
            while end < rows.count, try rows[end].nullableText("app_user_id") == id.rawValue { end += 1 }
            let mine = Array(events[start..<end])
            folds[id] = Fold(
                facts: SubscriberFacts.fold(appUserID: id, events: mine), events: mine.count, sequence: try rows[end - 1].nullableInteger("sequence"),
                latest: mine.map(\.receivedAt).max() ?? .distantPast)
            start = end
        }
        return folds
    }

    private struct Fold: Sendable {
        let facts: SubscriberFacts
        let events: Int
        let sequence: Int64?
        let latest: Date
    }
}
