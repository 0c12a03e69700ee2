import EntitleCore
import Foundation

/// The subscribers' projections (``ProjectionStore``): read through the shared cache, written with a new revision.
extension SQLLedgerStore {
    func projection(appUserID: AppUserID) async throws(StorageError) -> SubscriberFacts? {
        try await engine.read { session throws(StorageError) in try await self.rows.projection(app, appUserID, session) }
    }

    func projection(
        appUserID: AppUserID, latestGlobalEvent source: LedgerEventSource
    ) async throws(StorageError) -> (facts: SubscriberFacts?, global: LedgerEvent?) {
        let app = app
        let kept = projections.revision(app, appUserID)
        return try await engine.read { session throws(StorageError) in
            guard let row = try await session.execute(
                LedgerStatements.SubscriberRead.self, [.integer(kept), .id(app), .text(source.rawValue), .id(app), .id(appUserID)]
            ).first
            else { return (nil, nil) }
            var answer: (facts: SubscriberFacts?, global: LedgerEvent?) = (nil, nil)
            if try row.nullableText("found") != nil { answer.facts = try await self.rows.projection(app, appUserID, row: row, kept: kept, session) }
            if let event = try row.nullableText("event") { answer.global = try StoredJSON.decodeEvents([["event": .text(event)]]).first }
            return answer
        }
    }

    func projections(appUserIDs: Set<AppUserID>) async throws(StorageError) -> [AppUserID: SubscriberFacts] {
        guard !appUserIDs.isEmpty else { return [:] }
        let app = app
        return try await engine.read { session throws(StorageError) in
            var found: [AppUserID: SubscriberFacts] = [:]
            let list = SQLValue.inList(appUserIDs.sorted().map { SQLValue.id($0) })
            for row in try await session.execute(
                "SELECT app_user_id, revision, projection FROM subscribers WHERE app_id = ? AND app_user_id IN \(list.placeholders)",
                [.id(app)] + list.values)
            {
                guard let appUserID: AppUserID = try row.nullableID("app_user_id") else { continue }
                let revision = try row.nullableInteger("revision") ?? 0
                if revision != 0, let kept = projections.facts(app, appUserID, revision: revision) {
                    found[appUserID] = kept
                } else if let facts = try StoredJSON.decodeProjection(try row.nullableText("projection"), appUserID: appUserID) {
                    found[appUserID] = facts
                    if revision != 0 { projections.keep(facts, revision: revision, app: app, appUserID: appUserID) }
                }
            }
            return found
        }
    }

    func recentSubscribers(limit: Int, after cursor: RecentSubscriber.Cursor?) async throws(StorageError) -> [RecentSubscriber] {
        let app = app
        let limit = min(max(limit, 1), 1_000)
        return try await engine.read { session throws(StorageError) in
            var sql = "SELECT app_user_id, updated_at, projection FROM subscribers WHERE app_id = ?"
            var values: [SQLValue] = [.id(app)]
            if let cursor {
                sql += " AND (updated_at < ? OR (updated_at = ? AND app_user_id < ?))"
                values += [SQLValue(cursor.updatedAt), SQLValue(cursor.updatedAt), .id(cursor.appUserID)]
            }
            sql += " ORDER BY updated_at DESC, app_user_id DESC LIMIT \(limit)"
            var found: [RecentSubscriber] = []
            for row in try await session.execute(sql, values) {
                guard let appUserID: AppUserID = try row.nullableID("app_user_id"), let updatedAt = try row.nullableDate("updated_at"),
                    let facts = try StoredJSON.decodeProjection(try row.nullableText("projection"), appUserID: appUserID)
                else { continue }
                found.append(RecentSubscriber(appUserID: appUserID, facts: facts, updatedAt: updatedAt))
            }
            return found
        }
    }

    func subscriberIDs(startingWith prefix: String, limit: Int) async throws(StorageError) -> [AppUserID] {
        let app = app
        let order = engine.byteOrder
        let limit = min(max(limit, 1), 1_000)
        // Every ID starting with the prefix sorts from it to it followed by the last code point.
        let upper = prefix + "\u{10FFFF}"
        return try await engine.read { session throws(StorageError) in
            try await session.execute(
                "SELECT app_user_id FROM subscribers WHERE app_id = ? AND app_user_id\(order) >= ? AND app_user_id\(order) < ? "
                    + "ORDER BY app_user_id\(order) LIMIT \(limit)", [.id(app), .text(prefix), .text(upper)]
            ).map { row throws(StorageError) in try row.id("app_user_id", as: AppUserID.self) }.filter { $0.rawValue.utf8.starts(with: prefix.utf8) }
        }
    }

    func projections(after cursor: AppUserID?, limit: Int) async throws(StorageError) -> [(appUserID: AppUserID, facts: SubscriberFacts)] {
        let app = app
        let order = engine.byteOrder
        let limit = min(max(limit, 1), 1_000)
        return try await engine.read { session throws(StorageError) in
            var sql = "SELECT app_user_id, revision, projection FROM subscribers WHERE app_id = ?"
            var values: [SQLValue] = [.id(app)]
            if let cursor {
                sql += " AND app_user_id\(order) > ?"
                values.append(.id(cursor))
            }
            sql += " ORDER BY app_user_id\(order) LIMIT \(limit)"
            var page: [(appUserID: AppUserID, facts: SubscriberFacts)] = []
            for row in try await session.execute(sql, values) {
                guard let appUserID: AppUserID = try row.nullableID("app_user_id") else { continue }
                let revision = try row.nullableInteger("revision") ?? 0
                if revision != 0, let kept = projections.facts(app, appUserID, revision: revision) {
                    page.append((appUserID, kept))
                } else if let facts = try StoredJSON.decodeProjection(try row.nullableText("projection"), appUserID: appUserID) {
                    page.append((appUserID, facts))
                }
            }
            return page
        }
    }

    func subscriberIDs() async throws(StorageError) -> [AppUserID] {
        try await engine.read { session throws(StorageError) in
            try await session.execute("SELECT app_user_id FROM subscribers WHERE app_id = ? ORDER BY app_user_id", [.id(app)])
                .map { row throws(StorageError) in try row.id("app_user_id", as: AppUserID.self) }
        }
    }

}
