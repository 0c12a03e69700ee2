import EntitleCore
import Foundation

/// The statements the ledger's operations share, inside their transactions: inserting an event,
/// the advisory locks, owners and aliases, linking a purchase and adopting its held events, reading
/// and storing a projection through the cache of decoded projections.
struct LedgerRows: Sendable {
    let engine: any SQLEngine
    /// The steps the engine takes its own way.
    let writePath: any LedgerWritePath
    let app: BundleID
    /// Decoded projections, shared by the stores of every app on this engine.
    let projections: ProjectionCache

    /// Stores `event` for `appUserID` unless its idempotency key is known; returns its sequence, or
    /// `nil` for a duplicate.
    func insert(
        _ event: LedgerEvent, appUserID: AppUserID?, encoded: StoredEventRow, _ session: any SQLSession
    ) async throws(StorageError) -> Int64? {
        if let guardStatement = engine.appendGuardStatement { _ = try await session.execute(guardStatement, []) }
        return try await session.execute(
            """
            INSERT INTO ledger_events (id, app_id, idempotency_key, app_user_id, source, notification_uuid, transaction_id,
                original_transaction_id, signed_date, received_at, event, app_account_token, signed_payload)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (app_id, idempotency_key) DO NOTHING
            RETURNING sequence
            """,
            [
                .text(event.id.uuidString), .id(app), .text(event.idempotencyKey), SQLValue(appUserID), .text(event.source.rawValue),
                SQLValue(event.notificationUUID), SQLValue(event.transactionID), SQLValue(event.originalTransactionID),
                SQLValue(event.signedDate), SQLValue(event.receivedAt), .text(encoded.json),
                SQLValue(event.appAccountToken.map { $0.uuidString.lowercased() }), SQLValue(encoded.signedPayload),
            ]
        ).first?.nullableInteger("sequence")
    }

    static func aliasTarget(_ app: BundleID, _ alias: AppUserID, _ session: any SQLSession) async throws(StorageError) -> AppUserID? {
        try await session.execute(LedgerStatements.AliasTarget.self, [.id(app), .id(alias)]).first?.nullableID("app_user_id")
    }

    /// Links the purchase `original`, which no subscriber owns, to `appUserID`, and adopts the events
    /// held for it: they become the subscriber's, folded into `facts` in the order they were stored, in
    /// the caller's transaction (which holds the purchase's or the subscriber's lock). Returns how many
    /// events were adopted.
    func linkPurchase(
        _ original: OriginalTransactionID, to appUserID: AppUserID, at: Date, folding facts: inout SubscriberFacts, _ session: any SQLSession
    ) async throws(StorageError) -> Int {
        let held = try await writePath.link(original, to: appUserID, at: at, rows: self, session)
        for event in held { facts.apply(event) }
        return held.count
    }

    static func tokenOwner(_ app: BundleID, _ token: UUID, _ session: any SQLSession) async throws(StorageError) -> AppUserID? {
        try await session.execute(
            "SELECT app_user_id FROM account_tokens WHERE app_id = ? AND token = ?", [.id(app), .text(token.uuidString.lowercased())]
        ).first?.nullableID("app_user_id")
    }

    static func owner(_ app: BundleID, _ original: OriginalTransactionID, _ session: any SQLSession) async throws(StorageError) -> AppUserID? {
        try await session.execute(
            "SELECT app_user_id FROM purchase_links WHERE app_id = ? AND original_transaction_id = ?", [.id(app), .id(original)]
        ).first?.nullableID("app_user_id")
    }

    /// `appUserID`'s projection: the kept copy when the stored revision is the kept one (the JSON
    /// is then not even read), else decoded from the row and kept.
    func projection(_ app: BundleID, _ appUserID: AppUserID, _ session: any SQLSession) async throws(StorageError) -> SubscriberFacts? {
        let kept = projections.revision(app, appUserID)
        guard let row = try await session.execute(LedgerStatements.ProjectionRead.self, [.integer(kept), .id(app), .id(appUserID)]).first
        else { return nil }
        return try await projection(app, appUserID, row: row, kept: kept, session)
    }

    /// The projection from its row (`revision`, and `projection` unless the revision was `kept`).
    func projection(
        _ app: BundleID, _ appUserID: AppUserID, row: SQLRow, kept: Int64, _ session: any SQLSession
    ) async throws(StorageError) -> SubscriberFacts? {
        let revision = try row.nullableInteger("revision") ?? 0
        if revision != 0, revision == kept, let facts = projections.facts(app, appUserID, revision: revision) { return facts }
        guard let json = try row.nullableText("projection") else {
            // Kept a moment ago, then made room for another: read it in full.
            return try await StoredJSON.decodeProjection(session.execute(
                "SELECT projection FROM subscribers WHERE app_id = ? AND app_user_id = ?", [.id(app), .id(appUserID)]
            ).first?.nullableText("projection"), appUserID: appUserID)
        }
        let facts = try StoredJSON.decodeProjection(json, appUserID: appUserID)
        if revision != 0, let facts { projections.keep(facts, revision: revision, app: app, appUserID: appUserID) }
        return facts
    }

    /// Inserts the projections of subscribers who have none (the rebuild deleted theirs), each under a new
    /// revision, up to 100 a statement, and keeps them; returns each one's stored JSON, in order.
    func insertProjections(
        _ folded: [(appUserID: AppUserID, facts: SubscriberFacts, events: Int, at: Date)], app: BundleID, _ session: any SQLSession
    ) async throws(StorageError) -> [(AppUserID, String)] {
        var written: [(AppUserID, String)] = []
        written.reserveCapacity(folded.count)
        var start = 0
        while start < folded.count {
            let part = folded[start..<min(folded.count, start + 100)]
            var binds: [SQLValue] = []
            binds.reserveCapacity(part.count * 6)
            var kept: [(AppUserID, SubscriberFacts, Int64)] = []
            for item in part {
                let json = try StoredJSON.encodeProjection(item.facts, appUserID: item.appUserID)
                let revision = ProjectionCache.newRevision()
                binds += [.id(app), .id(item.appUserID), .text(json), .integer(Int64(item.events)), SQLValue(item.at), .integer(revision)]
                written.append((item.appUserID, json))
                kept.append((item.appUserID, item.facts, revision))
            }
            let rows = Array(repeating: "(?, ?, ?, ?, ?, ?)", count: part.count).joined(separator: ", ")
            _ = try await session.execute(
                "INSERT INTO subscribers (app_id, app_user_id, projection, event_count, updated_at, revision) VALUES \(rows)", binds)
            // Kept now, even before the commit: a rolled-back write leaves a revision no row has.
            for (id, facts, revision) in kept { projections.keep(facts, revision: revision, app: app, appUserID: id) }
            start += part.count
        }
        return written
    }

    /// Stores `facts` as `appUserID`'s projection under a new revision, and keeps them; returns the
    /// stored JSON.
    @discardableResult
    func store(
        _ facts: SubscriberFacts, app: BundleID, appUserID: AppUserID, addedEvents: Int, at: Date, _ session: any SQLSession
    ) async throws(StorageError) -> String {
        let json = try StoredJSON.encodeProjection(facts, appUserID: appUserID)
        let revision = ProjectionCache.newRevision()
        _ = try await session.execute(
            """
            INSERT INTO subscribers (app_id, app_user_id, projection, event_count, updated_at, revision) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (app_id, app_user_id) DO UPDATE SET projection = excluded.projection,
                event_count = subscribers.event_count + excluded.event_count, updated_at = excluded.updated_at, revision = excluded.revision
            """,
            [.id(app), .id(appUserID), .text(json), .integer(Int64(addedEvents)), SQLValue(at), .integer(revision)])
        // Kept now, even before the commit: a rolled-back write leaves a revision no row has.
        projections.keep(facts, revision: revision, app: app, appUserID: appUserID)
        return json
    }
}
