import EntitleCore
import Foundation

/// An append, in one statement when the engine has a routine for it and this instance keeps the
/// likely subscriber's projection, else in a transaction, statement by statement or with the
/// engine's routine for its first steps.
extension LedgerRows {
    func append(_ event: LedgerEvent, admit: (@Sendable (SubscriberFacts) -> Bool)?) async throws(StorageError) -> AppendOutcome {
        let encoded = try await engine.chains.row(event, engine)
        if admit == nil, let call = engine.keptAppendCall, let outcome = try await appendKept(call, event, encoded: encoded) {
            return outcome
        }
        let app = app
        return try await engine.transaction { session throws(StorageError) in
            let start: AppendStart
            if admit == nil, let call = self.engine.appendCall {
                start = try await self.startInOneCall(call, event, encoded: encoded, session)
            } else {
                switch try await self.start(event, encoded: encoded, admit: admit, session) {
                case .started(let started): start = started
                case .finished(let outcome): return outcome
                }
            }
            guard let sequence = start.sequence else { return .duplicate }
            guard let appUserID = start.appUserID else { return .appended(sequence: sequence, appUserID: nil) }
            let owner = start.owner

            var facts = start.facts ?? SubscriberFacts(appUserID: appUserID)
            var applied = 1
            if let original = event.originalTransactionID, owner == nil {
                applied += try await self.linkPurchase(original, to: appUserID, at: event.receivedAt, folding: &facts, session)
            }
            facts.apply(event)
            try await self.store(facts, app: app, appUserID: appUserID, addedEvents: applied, at: event.receivedAt, session)
            return .appended(sequence: sequence, appUserID: appUserID)
        }
    }

    /// The whole append in one statement (``KeptAppendRoutine``) when this instance keeps the
    /// projection of the subscriber the event likely goes to: the event is folded into it here, and the
    /// routine stores both only if that subscriber's stored revision is still the kept one. `nil`: the
    /// routine wrote nothing, and the append runs in a transaction.
    func appendKept(_ call: any KeptStatement.Type, _ event: LedgerEvent, encoded: StoredEventRow) async throws(StorageError) -> AppendOutcome? {
        let app = app
        guard let likely = likelySubscriber(of: event) else { return nil }
        let kept = projections.revision(app, likely)
        guard kept != 0, var facts = projections.facts(app, likely, revision: kept) else { return nil }
        facts.apply(event)
        let projection = try StoredJSON.encodeProjection(facts, appUserID: likely)
        let revision = ProjectionCache.newRevision()
        let binds = routineBinds(event, encoded: encoded, likely: likely, kept: kept) + [.text(projection), .integer(revision)]
        let row = try await engine.statement { session throws(StorageError) in try await session.execute(call, binds).first }
        guard let row, row["o_done"]?.integer == 1 else { return nil }
        guard let sequence = row["o_sequence"]?.integer else { return .duplicate }
        projections.keep(facts, revision: revision, app: app, appUserID: likely)
        if let original = event.originalTransactionID { projections.noteOwner(likely, app: app, original: original) }
        return .appended(sequence: sequence, appUserID: likely)
    }

    /// What an append knows once its event is inserted: its subscriber (if any), the purchase's owner
    /// before it, its sequence (`nil`: a duplicate) and the subscriber's projection.
    struct AppendStart {
        var appUserID: AppUserID?
        var owner: AppUserID?
        var sequence: Int64?
        var facts: SubscriberFacts?
    }

    enum AppendStep {
        case started(AppendStart)
        case finished(AppendOutcome)
    }

    /// An append's first steps, statement by statement: lock the purchase, find its owner (or the
    /// subscriber its appAccountToken was registered for), lock the subscriber, admit, insert, and read
    /// the projection. ``AppendRoutine`` does the same in one call.
    func start(
        _ event: LedgerEvent, encoded: StoredEventRow, admit: (@Sendable (SubscriberFacts) -> Bool)?, _ session: any SQLSession
    ) async throws(StorageError) -> AppendStep {
        if let original = event.originalTransactionID {
            try await session.lock(Self.purchaseLock(app, original))
        }
        var appUserID = event.appUserID
        var owner: AppUserID?
        if let original = event.originalTransactionID {
            owner = try await Self.owner(app, original, session)
            if appUserID == nil { appUserID = owner }
        }
        // A purchase no app submitted: the subscriber its appAccountToken was registered for.
        if appUserID == nil, event.originalTransactionID != nil, let token = event.appAccountToken {
            appUserID = try await Self.tokenOwner(app, token, session)
        }
        if let appUserID {
            try await session.lock(Self.subscriberLock(app, appUserID))
        }
        if let admit {
            let known = try await session.execute(
                "SELECT 1 AS known FROM ledger_events WHERE app_id = ? AND idempotency_key = ?", [.id(app), .text(event.idempotencyKey)])
            if !known.isEmpty { return .finished(.duplicate) }
            let current = try await appUserID.asyncMap { id throws(StorageError) in try await self.projection(app, id, session) } ?? nil
            guard admit(current ?? SubscriberFacts(appUserID: appUserID ?? "")) else { return .finished(.refused) }
        }
        guard let sequence = try await insert(event, appUserID: appUserID, encoded: encoded, session) else {
            return .started(AppendStart(appUserID: appUserID, owner: owner, sequence: nil))
        }
        let facts = try await appUserID.asyncMap { id throws(StorageError) in try await self.projection(app, id, session) } ?? nil
        return .started(AppendStart(appUserID: appUserID, owner: owner, sequence: sequence, facts: facts))
    }

    /// The subscriber an event is likely to go to, as a routine will find it: the one the event names,
    /// else the one the purchase's last append went to.
    func likelySubscriber(of event: LedgerEvent) -> AppUserID? {
        event.appUserID ?? event.originalTransactionID.flatMap { projections.lastOwner(app, $0) }
    }

    /// The binds ``AppendRoutine``'s call takes, which ``KeptAppendRoutine``'s begins with: the event,
    /// its stored JSON, and the likely subscriber with the revision kept for them.
    func routineBinds(_ event: LedgerEvent, encoded: StoredEventRow, likely: AppUserID?, kept: Int64) -> [SQLValue] {
        [
            .id(app), SQLValue(event.originalTransactionID), SQLValue(event.appUserID),
            SQLValue(event.appAccountToken.map { $0.uuidString.lowercased() }), SQLValue(likely), .integer(kept),
            .text(event.id.uuidString), .text(event.idempotencyKey), .text(event.source.rawValue), SQLValue(event.notificationUUID),
            SQLValue(event.transactionID), SQLValue(event.signedDate), SQLValue(event.receivedAt), .text(encoded.json),
            SQLValue(encoded.signedPayload),
        ]
    }

    /// An append's first steps in one call of the engine's routine (``AppendRoutine``).
    func startInOneCall(_ call: any KeptStatement.Type, _ event: LedgerEvent, encoded: StoredEventRow, _ session: any SQLSession) async throws(StorageError) -> AppendStart {
        // The routine leaves the projection out only when it is the likely subscriber's and at the kept
        // revision.
        let likely = likelySubscriber(of: event)
        let kept = likely.map { projections.revision(app, $0) } ?? 0
        guard let row = try await session.execute(call, routineBinds(event, encoded: encoded, likely: likely, kept: kept)).first else {
            throw StorageError(.queryFailed, "the append routine returned no row")
        }
        let appUserID: AppUserID? = row["o_app_user_id"]?.id()
        var start = AppendStart(appUserID: appUserID, owner: row["o_owner"]?.id(), sequence: row["o_sequence"]?.integer)
        if let appUserID, start.sequence != nil {
            if let original = event.originalTransactionID { projections.noteOwner(appUserID, app: app, original: original) }
            if row["o_found"]?.integer == 1 {
                start.facts = try await projection(
                    app, appUserID, row: ["revision": row["o_revision"] ?? .null, "projection": row["o_projection"] ?? .null],
                    kept: likely == appUserID ? kept : 0, session)
            }
        }
        return start
    }
}
