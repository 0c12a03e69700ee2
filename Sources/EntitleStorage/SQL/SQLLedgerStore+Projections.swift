import EntitleCore
import Foundation

/// The subscribers' projections (``ProjectionStore``): read through the shared cache, written with a new revision.
extension SQLLedgerStore {
    func projection(appUserID: String) async throws(StorageError) -> SubscriberFacts? {
        try await engine.read { session throws(StorageError) in try await self.projection(app, appUserID, session) }
    }

    func projection(
        appUserID: String, latestGlobalEvent source: LedgerEventSource
    ) async throws(StorageError) -> (facts: SubscriberFacts?, global: LedgerEvent?) {
        let app = app
        let kept = projections.revision(app, appUserID)
        return try await engine.read { session throws(StorageError) in
            guard let row = try await session.execute(
                LedgerStatements.SubscriberRead.self, [.integer(kept), .text(app), .text(source.rawValue), .text(app), .text(appUserID)]
            ).first
            else { return (nil, nil) }
            var answer: (facts: SubscriberFacts?, global: LedgerEvent?) = (nil, nil)
            if row["found"]?.text != nil { answer.facts = try await self.projection(app, appUserID, row: row, kept: kept, session) }
            if let event = row["event"], event.text != nil { answer.global = try Self.decodeEvents([["event": event]]).first }
            return answer
        }
    }

    func projections(appUserIDs: Set<String>) async throws(StorageError) -> [String: SubscriberFacts] {
        guard !appUserIDs.isEmpty else { return [:] }
        let app = app
        return try await engine.read { session throws(StorageError) in
            var found: [String: SubscriberFacts] = [:]
            let list = SQLValue.inList(appUserIDs.sorted().map(SQLValue.text))
            for row in try await session.execute(
                "SELECT app_user_id, revision, projection FROM subscribers WHERE app_id = ? AND app_user_id IN \(list.placeholders)",
                [.text(app)] + list.values)
            {
                guard let appUserID = row["app_user_id"]?.text else { continue }
                let revision = row["revision"]?.integer ?? 0
                if revision != 0, let kept = projections.facts(app, appUserID, revision: revision) {
                    found[appUserID] = kept
                } else if let facts = try Self.decodeProjection(row["projection"]?.text, appUserID: appUserID) {
                    found[appUserID] = facts
                    if revision != 0 { projections.keep(facts, revision: revision, app: app, appUserID: appUserID) }
                }
            }
            return found
        }
    }

    func subscriberIDs() async throws(StorageError) -> [String] {
        try await engine.read { session throws(StorageError) in
            try await session.execute("SELECT app_user_id FROM subscribers WHERE app_id = ? ORDER BY app_user_id", [.text(app)])
                .compactMap { $0["app_user_id"]?.text }
        }
    }

    func rebuildProjections() async throws(StorageError) -> Int {
        let app = app
        let ids = try await engine.transaction { session throws(StorageError) in
            try await session.execute(
                "SELECT DISTINCT app_user_id FROM ledger_events WHERE app_id = ? AND app_user_id IS NOT NULL ORDER BY app_user_id", [.text(app)]
            ).compactMap { $0["app_user_id"]?.text }
        }
        for id in ids {
            try await engine.transaction { session throws(StorageError) in
                try await session.lock(Self.subscriberLock(app, id))
                let events = try Self.decodeEvents(await session.execute(
                    "SELECT event FROM ledger_events WHERE app_id = ? AND app_user_id = ? ORDER BY sequence", [.text(app), .text(id)]))
                let facts = SubscriberFacts.fold(appUserID: id, events: events)
                _ = try await session.execute("DELETE FROM subscribers WHERE app_id = ? AND app_user_id = ?", [.text(app), .text(id)])
                try await self.store(
                    facts, app: app, appUserID: id, addedEvents: events.count, at: events.map(\.receivedAt).max() ?? .distantPast, session)
            }
        }
        return ids.count
    }

    /// `appUserID`'s projection: the kept copy when the stored revision is the kept one (the JSON
    /// is then not even read), else decoded from the row and kept.
    func projection(_ app: String, _ appUserID: String, _ session: any SQLSession) async throws(StorageError) -> SubscriberFacts? {
        let kept = projections.revision(app, appUserID)
        guard let row = try await session.execute(LedgerStatements.ProjectionRead.self, [.integer(kept), .text(app), .text(appUserID)]).first
        else { return nil }
        return try await projection(app, appUserID, row: row, kept: kept, session)
    }

    /// The projection from its row (`revision`, and `projection` unless the revision was `kept`).
    func projection(
        _ app: String, _ appUserID: String, row: [String: SQLValue], kept: Int64, _ session: any SQLSession
    ) async throws(StorageError) -> SubscriberFacts? {
        let revision = row["revision"]?.integer ?? 0
        if revision != 0, revision == kept, let facts = projections.facts(app, appUserID, revision: revision) { return facts }
        guard let json = row["projection"]?.text else {
            // Kept a moment ago, then made room for another: read it in full.
            return try await Self.decodeProjection(session.execute(
                "SELECT projection FROM subscribers WHERE app_id = ? AND app_user_id = ?", [.text(app), .text(appUserID)]
            ).first?["projection"]?.text, appUserID: appUserID)
        }
        let facts = try Self.decodeProjection(json, appUserID: appUserID)
        if revision != 0, let facts { projections.keep(facts, revision: revision, app: app, appUserID: appUserID) }
        return facts
    }

    static func decodeProjection(_ json: String?, appUserID: String) throws(StorageError) -> SubscriberFacts? {
        guard let json else { return nil }
        do {
            return try decoder().decode(SubscriberFacts.self, from: Data(json.utf8))
        } catch {
            throw StorageError(.corruptRecord, "the projection of \(appUserID) does not decode", underlying: error)
        }
    }

    /// Stores `facts` as `appUserID`'s projection under a new revision, and keeps them.
    func store(
        _ facts: SubscriberFacts, app: String, appUserID: String, addedEvents: Int, at: Date, _ session: any SQLSession
    ) async throws(StorageError) {
        let json = try Self.encodeProjection(facts, appUserID: appUserID)
        let revision = ProjectionCache.newRevision()
        _ = try await session.execute(
            """
            INSERT INTO subscribers (app_id, app_user_id, projection, event_count, updated_at, revision) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (app_id, app_user_id) DO UPDATE SET projection = excluded.projection,
                event_count = subscribers.event_count + excluded.event_count, updated_at = excluded.updated_at, revision = excluded.revision
            """,
            [.text(app), .text(appUserID), .text(json), .integer(Int64(addedEvents)), SQLValue(at), .integer(revision)])
        // Kept now, even before the commit: a rolled-back write leaves a revision no row has.
        projections.keep(facts, revision: revision, app: app, appUserID: appUserID)
    }

    static func encodeProjection(_ facts: SubscriberFacts, appUserID: String) throws(StorageError) -> String {
        if let json = StoredProjectionWriter.json(facts) { return json }
        do {
            return String(decoding: try encoder.encode(facts), as: UTF8.self)
        } catch {
            throw StorageError(.corruptRecord, "the projection of \(appUserID) does not encode", underlying: error)
        }
    }
}
