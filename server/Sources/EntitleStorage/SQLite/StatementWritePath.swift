import EntitleCore
import Foundation

/// SQLite's write path: each step a statement, in the one writer's transaction. PostgreSQL's
/// ``RoutineWritePath`` runs its admission checks this way too (the check runs in Swift, between the
/// reads and the insert).
struct StatementWritePath: LedgerWritePath {
    let routines: [String] = []

    func appendWhole(_ event: LedgerEvent, encoded: StoredEventRow, rows: LedgerRows) async throws(StorageError) -> AppendOutcome? { nil }

    func start(
        _ event: LedgerEvent, encoded: StoredEventRow, admit: (@Sendable (SubscriberFacts) -> Bool)?, rows: LedgerRows, _ session: any SQLSession
    ) async throws(StorageError) -> LedgerRows.AppendStep {
        let app = rows.app
        if let original = event.originalTransactionID {
            try await session.lock(.purchase(app, original))
        }
        var appUserID = event.appUserID
        var owner: AppUserID?
        if let original = event.originalTransactionID {
            owner = try await LedgerRows.owner(app, original, session)
            if appUserID == nil { appUserID = owner }
        }
        // A purchase no app submitted: the subscriber its appAccountToken was registered for.
        if appUserID == nil, event.originalTransactionID != nil, let token = event.appAccountToken {
            appUserID = try await LedgerRows.tokenOwner(app, token, session)
        }
        if let appUserID {
            try await session.lock(.subscriber(app, appUserID))
        }
        if let admit {
            let known = try await session.execute(
                "SELECT 1 AS known FROM ledger_events WHERE app_id = ? AND idempotency_key = ?", [.id(app), .text(event.idempotencyKey)])
            if !known.isEmpty { return .finished(.duplicate) }
            let current = try await appUserID.asyncMap { id throws(StorageError) in try await rows.projection(app, id, session) } ?? nil
            guard admit(current ?? SubscriberFacts(appUserID: appUserID ?? "")) else { return .finished(.refused) }
        }
        guard let sequence = try await rows.insert(event, appUserID: appUserID, encoded: encoded, session) else {
            return .started(LedgerRows.AppendStart(appUserID: appUserID, owner: owner, sequence: nil))
        }
        let facts = try await appUserID.asyncMap { id throws(StorageError) in try await rows.projection(app, id, session) } ?? nil
        return .started(LedgerRows.AppendStart(appUserID: appUserID, owner: owner, sequence: sequence, facts: facts))
    }

    func link(
        _ original: OriginalTransactionID, to appUserID: AppUserID, at: Date, rows: LedgerRows, _ session: any SQLSession
    ) async throws(StorageError) -> [LedgerEvent] {
        let app = rows.app
        _ = try await session.execute(
            "INSERT INTO purchase_links (app_id, original_transaction_id, app_user_id, linked_at) VALUES (?, ?, ?, ?)",
            [.id(app), .id(original), .id(appUserID), SQLValue(at)])
        let held = try StoredJSON.decodeEvents(await session.execute(
            "SELECT event FROM ledger_events WHERE app_id = ? AND original_transaction_id = ? AND app_user_id IS NULL ORDER BY sequence",
            [.id(app), .id(original)]))
        _ = try await session.execute(
            "UPDATE ledger_events SET app_user_id = ? WHERE app_id = ? AND original_transaction_id = ? AND app_user_id IS NULL",
            [.id(appUserID), .id(app), .id(original)])
        return held
    }
}
