import EntitleCore
import Foundation

/// PostgreSQL's write path: its routines, one round trip each. A whole append is one call of
/// ``KeptAppendRoutine`` when this instance keeps the likely subscriber's projection; else its first
/// steps are one call of ``AppendRoutine`` and a link one ``LinkPurchaseStatement``. An append with an
/// admission check runs the statements (``StatementWritePath``): the check runs in Swift, between the
/// reads and the insert.
struct RoutineWritePath: LedgerWritePath {
    let routines = [AppendRoutine.definition, KeptAppendRoutine.definition]

    /// The whole append in one statement (``KeptAppendRoutine``) when this instance keeps the
    /// projection of the subscriber the event likely goes to: the event is folded into it here, and the
    /// routine stores both only if that subscriber's stored revision is still the kept one. `nil`: the
    /// routine wrote nothing, and the append runs in a transaction.
    func appendWhole(_ event: LedgerEvent, encoded: StoredEventRow, rows: LedgerRows) async throws(StorageError) -> AppendOutcome? {
        let (app, projections) = (rows.app, rows.projections)
        guard let likely = likelySubscriber(of: event, rows: rows) else { return nil }
        let kept = projections.revision(app, likely)
        guard kept != 0, var facts = projections.facts(app, likely, revision: kept) else { return nil }
        facts.apply(event)
        let projection = try StoredJSON.encodeProjection(facts, appUserID: likely)
        let revision = ProjectionCache.newRevision()
        let binds = routineBinds(event, encoded: encoded, app: app, likely: likely, kept: kept) + [.text(projection), .integer(revision)]
        let row = try await rows.engine.statement { session throws(StorageError) in try await session.execute(KeptAppendRoutine.self, binds).first }
        guard let row, try row.nullableInteger("o_done") == 1 else { return nil }
        guard let sequence = try row.nullableInteger("o_sequence") else { return .duplicate }
        projections.keep(facts, revision: revision, app: app, appUserID: likely)
        if let original = event.originalTransactionID { projections.noteOwner(likely, app: app, original: original) }
        return .appended(sequence: sequence, appUserID: likely)
    }

    /// An append's first steps in one call of ``AppendRoutine``; with an admission check, the statements.
    func start(
        _ event: LedgerEvent, encoded: StoredEventRow, admit: (@Sendable (SubscriberFacts) -> Bool)?, rows: LedgerRows, _ session: any SQLSession
    ) async throws(StorageError) -> LedgerRows.AppendStep {
        if admit != nil { return try await StatementWritePath().start(event, encoded: encoded, admit: admit, rows: rows, session) }
        let (app, projections) = (rows.app, rows.projections)
        // The routine leaves the projection out only when it is the likely subscriber's and at the kept
        // revision.
        let likely = likelySubscriber(of: event, rows: rows)
        let kept = likely.map { projections.revision(app, $0) } ?? 0
        guard let row = try await session.execute(AppendRoutine.self, routineBinds(event, encoded: encoded, app: app, likely: likely, kept: kept)).first else {
            throw StorageError(.queryFailed, "the append routine returned no row")
        }
        let appUserID: AppUserID? = try row.nullableID("o_app_user_id")
        var start = LedgerRows.AppendStart(appUserID: appUserID, owner: try row.nullableID("o_owner"), sequence: try row.nullableInteger("o_sequence"))
        if let appUserID, start.sequence != nil {
            if let original = event.originalTransactionID { projections.noteOwner(appUserID, app: app, original: original) }
            if try row.nullableInteger("o_found") == 1 {
                start.facts = try await rows.projection(
                    app, appUserID, row: ["revision": try row.value("o_revision"), "projection": try row.value("o_projection")],
                    kept: likely == appUserID ? kept : 0, session)
            }
        }
        return .started(start)
    }

    func link(
        _ original: OriginalTransactionID, to appUserID: AppUserID, at: Date, rows: LedgerRows, _ session: any SQLSession
    ) async throws(StorageError) -> [LedgerEvent] {
        let app = rows.app
        return try StoredJSON.decodeEvents(await session.execute(
            LinkPurchaseStatement.self, [.id(app), .id(original), .id(appUserID), SQLValue(at), .id(appUserID), .id(app), .id(original)]))
    }

    /// The subscriber an event is likely to go to, as a routine will find it: the one the event names,
    /// else the one the purchase's last append went to.
    func likelySubscriber(of event: LedgerEvent, rows: LedgerRows) -> AppUserID? {
        event.appUserID ?? event.originalTransactionID.flatMap { rows.projections.lastOwner(rows.app, $0) }
    }

    /// The binds ``AppendRoutine``'s call takes, which ``KeptAppendRoutine``'s begins with: the event,
    /// its stored JSON, and the likely subscriber with the revision kept for them.
    func routineBinds(_ event: LedgerEvent, encoded: StoredEventRow, app: BundleID, likely: AppUserID?, kept: Int64) -> [SQLValue] {
        [
            .id(app), SQLValue(event.originalTransactionID), SQLValue(event.appUserID),
            SQLValue(event.appAccountToken.map { $0.uuidString.lowercased() }), SQLValue(likely), .integer(kept),
            .text(event.id.uuidString), .text(event.idempotencyKey), .text(event.source.rawValue), SQLValue(event.notificationUUID),
            SQLValue(event.transactionID), SQLValue(event.signedDate), SQLValue(event.receivedAt), .text(encoded.json),
            SQLValue(encoded.signedPayload),
        ]
    }
}
