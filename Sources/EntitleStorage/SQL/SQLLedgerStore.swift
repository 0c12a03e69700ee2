import EntitleCore
import Foundation

/// The ledger logic, written once over ``SQLEngine``: idempotent appends, purchase links, held
/// events, projections updated in the same transaction. Every statement is confined to the store's
/// app: several apps share a database, never a row.
final class SQLLedgerStore: LedgerStore {
    let engine: any SQLEngine
    let app: String
    /// Decoded projections, shared by the stores of every app on this engine.
    let projections: ProjectionCache
    /// The analytics aggregates kept in memory, shared by the stores of every app on this engine.
    let aggregates: AggregateCache

    init(
        engine: any SQLEngine, app: String = "", projections: ProjectionCache = ProjectionCache(), aggregates: AggregateCache = AggregateCache()
    ) {
        self.engine = engine
        self.app = app
        self.projections = projections
        self.aggregates = aggregates
    }

    func forApp(_ app: String) -> any LedgerStore {
        SQLLedgerStore(engine: engine, app: app, projections: projections, aggregates: aggregates)
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }

    func migrate() async throws(StorageError) {
        try await migrate(through: nil)
        if !app.isEmpty { try await adoptUnassignedRows() }
        try await backfillHeldTokens()
    }

    /// Held events written before version 6 carry their appAccountToken only in their JSON: copy it to
    /// its column, so registering the token finds them.
    private func backfillHeldTokens() async throws(StorageError) {
        try await engine.transaction { session throws(StorageError) in
            let rows = try await session.execute(
                "SELECT id, event FROM ledger_events WHERE app_user_id IS NULL AND original_transaction_id IS NOT NULL AND app_account_token IS NULL",
                [])
            for row in rows {
                guard let id = row["id"]?.text, let token = try Self.decodeEvents([row]).first?.appAccountToken else { continue }
                _ = try await session.execute(
                    "UPDATE ledger_events SET app_account_token = ? WHERE id = ?", [.text(token.uuidString.lowercased()), .text(id)])
            }
        }
    }

    func registerAccountToken(_ token: UUID, appUserID: String, at: Date) async throws(StorageError) -> AccountTokenRegistration {
        let app = app
        let text = token.uuidString.lowercased()
        return try await engine.transaction { session throws(StorageError) in
            try await session.lock(Self.subscriberLock(app, appUserID))
            if let existing = try await Self.tokenOwner(app, token, session) {
                guard existing == appUserID else { return .ownedBy(existing) }
            } else {
                _ = try await session.execute(
                    "INSERT INTO account_tokens (app_id, token, app_user_id, registered_at) VALUES (?, ?, ?, ?)",
                    [.text(app), .text(text), .text(appUserID), SQLValue(at)])
            }
            // Purchases that arrived before the token was known, with no owner yet: they are this subscriber's.
            // Deduplicated and ordered here: asked of the database, SQLite would walk every purchase's
            // events in order rather than look the token up.
            let originals = Set(try await session.execute(
                """
                SELECT original_transaction_id FROM ledger_events
                WHERE app_id = ? AND app_account_token = ? AND app_user_id IS NULL AND original_transaction_id IS NOT NULL
                """, [.text(app), .text(text)]
            ).compactMap { $0["original_transaction_id"]?.text }).sorted()
            var linked: [String] = []
            var facts = try await self.projection(app, appUserID, session) ?? SubscriberFacts(appUserID: appUserID)
            var applied = 0
            for original in originals where try await Self.owner(app, original, session) == nil {
                _ = try await session.execute(
                    "INSERT INTO purchase_links (app_id, original_transaction_id, app_user_id, linked_at) VALUES (?, ?, ?, ?)",
                    [.text(app), .text(original), .text(appUserID), SQLValue(at)])
                let held = try await Self.decodeEvents(session.execute(
                    "SELECT event FROM ledger_events WHERE app_id = ? AND original_transaction_id = ? AND app_user_id IS NULL ORDER BY sequence",
                    [.text(app), .text(original)]))
                _ = try await session.execute(
                    "UPDATE ledger_events SET app_user_id = ? WHERE app_id = ? AND original_transaction_id = ? AND app_user_id IS NULL",
                    [.text(appUserID), .text(app), .text(original)])
                for event in held { facts.apply(event) }
                applied += held.count
                linked.append(original)
            }
            if applied > 0 {
                try await self.store(facts, app: app, appUserID: appUserID, addedEvents: applied, at: at, session)
            }
            return .registered(linkedPurchases: linked)
        }
    }

    func merge(anonymous: String, into known: String, at: Date) async throws(StorageError) -> MergeOutcome {
        let app = app
        return try await engine.transaction { session throws(StorageError) in
            for id in [anonymous, known].sorted() { try await session.lock(Self.subscriberLock(app, id)) }
            if let target = try await Self.aliasTarget(app, anonymous, session) {
                return target == known ? .alreadyMerged : .mergedElsewhere(target)
            }
            var anonymousFacts = try await self.projection(app, anonymous, session) ?? SubscriberFacts(appUserID: anonymous)
            var knownFacts = try await self.projection(app, known, session) ?? SubscriberFacts(appUserID: known)
            let incoming = LedgerEvent(
                id: UUID(), appUserID: known, source: .login, idempotencyKey: "merge:\(anonymous)→\(known)", signedDate: at, receivedAt: at,
                payload: .subscriberMerged(from: anonymous, into: known, facts: anonymousFacts))
            let outgoing = LedgerEvent(
                id: UUID(), appUserID: anonymous, source: .login, idempotencyKey: "merged:\(anonymous)→\(known)", signedDate: at, receivedAt: at,
                payload: .subscriberMerged(from: anonymous, into: known, facts: nil))
            for event in [incoming, outgoing] {
                _ = try await self.insert(event, appUserID: event.appUserID, encoded: try Self.encode(event), session)
            }
            _ = try await session.execute(
                "UPDATE purchase_links SET app_user_id = ?, linked_at = ? WHERE app_id = ? AND app_user_id = ?",
                [.text(known), SQLValue(at), .text(app), .text(anonymous)])
            _ = try await session.execute(
                "UPDATE account_tokens SET app_user_id = ? WHERE app_id = ? AND app_user_id = ?", [.text(known), .text(app), .text(anonymous)])
            _ = try await session.execute(
                "INSERT INTO subscriber_aliases (app_id, alias, app_user_id, merged_at) VALUES (?, ?, ?, ?)",
                [.text(app), .text(anonymous), .text(known), SQLValue(at)])
            knownFacts.apply(incoming)
            anonymousFacts.apply(outgoing)
            try await self.store(knownFacts, app: app, appUserID: known, addedEvents: 1, at: at, session)
            try await self.store(anonymousFacts, app: app, appUserID: anonymous, addedEvents: 1, at: at, session)
            return .merged
        }
    }

    func aliasTarget(_ appUserID: String) async throws(StorageError) -> String? {
        try await engine.read { session throws(StorageError) in try await Self.aliasTarget(app, appUserID, session) }
    }

    private static func aliasTarget(_ app: String, _ alias: String, _ session: any SQLSession) async throws(StorageError) -> String? {
        try await session.execute(LedgerStatements.AliasTarget.self, [.text(app), .text(alias)]).first?["app_user_id"]?.text
    }

    func accountTokenOwner(_ token: UUID) async throws(StorageError) -> String? {
        try await engine.read { session throws(StorageError) in try await Self.tokenOwner(app, token, session) }
    }

    /// Moves rows written before apps existed (schema version 4 and older, app '') to this store's app,
    /// in one transaction; nothing when there are none.
    func adoptUnassignedRows() async throws(StorageError) {
        let app = app
        try await engine.transaction { session throws(StorageError) in
            try await session.lock("entitle.migrations")
            let unassigned = try await session.execute("SELECT 1 AS found FROM subscribers WHERE app_id = '' LIMIT 1", [])
            let events = try await session.execute("SELECT 1 AS found FROM ledger_events WHERE app_id = '' LIMIT 1", [])
            guard !unassigned.isEmpty || !events.isEmpty else { return }
            for table in LedgerSchema.appTables {
                _ = try await session.execute("UPDATE \(table) SET app_id = ? WHERE app_id = ''", [.text(app)])
            }
            // The app's aggregates now hold the rows adopted: no revision is theirs until the next write.
            _ = try await session.execute("DELETE FROM analytics_revisions WHERE app_id IN ('', ?)", [.text(app)])
        }
    }

    /// Brings the schema to `version` (the latest when `nil`); tests start from an older version.
    func migrate(through version: Int?) async throws(StorageError) {
        let migrations = LedgerSchema.migrations(
            sequenceColumn: engine.sequenceColumn, sequenceReset: engine.sequenceReset, uncompressedPayloads: engine.uncompressedPayloads
        ).filter { $0.version <= version ?? .max }
        try await engine.transaction { session throws(StorageError) in
            try await session.lock("entitle.migrations")
            _ = try await session.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)", [])
            let current = try await session.execute("SELECT MAX(version) AS version FROM schema_migrations", []).first?["version"]?.integer ?? 0
            let latest = migrations.map(\.version).max() ?? 0
            guard current <= latest else {
                throw StorageError(.schemaTooNew, "the database is at schema version \(current); this version of Entitle knows up to \(latest)")
            }
            for migration in migrations where migration.version > current {
                for statement in migration.statements {
                    _ = try await session.execute(statement, [])
                }
                _ = try await session.execute(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)", [.integer(Int64(migration.version)), SQLValue(Date.now)])
            }
            if version == nil {
                for routine in self.engine.routines { _ = try await session.execute(routine, []) }
            }
        }
    }

    func append(_ event: LedgerEvent) async throws(StorageError) -> AppendOutcome {
        try await append(event, admit: nil)
    }

    func append(_ event: LedgerEvent, admitting admit: @escaping @Sendable (SubscriberFacts) -> Bool) async throws(StorageError) -> AppendOutcome {
        try await append(event, admit: admit)
    }

    private func append(_ event: LedgerEvent, admit: (@Sendable (SubscriberFacts) -> Bool)?) async throws(StorageError) -> AppendOutcome {
        let encoded = try Self.encode(event)
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
                _ = try await session.execute(
                    "INSERT INTO purchase_links (app_id, original_transaction_id, app_user_id, linked_at) VALUES (?, ?, ?, ?)",
                    [.text(app), .text(original), .text(appUserID), SQLValue(event.receivedAt)])
                let held = try await Self.decodeEvents(session.execute(
                    "SELECT event FROM ledger_events WHERE app_id = ? AND original_transaction_id = ? AND app_user_id IS NULL ORDER BY sequence",
                    [.text(app), .text(original)]))
                _ = try await session.execute(
                    "UPDATE ledger_events SET app_user_id = ? WHERE app_id = ? AND original_transaction_id = ? AND app_user_id IS NULL",
                    [.text(appUserID), .text(app), .text(original)])
                for heldEvent in held { facts.apply(heldEvent) }
                applied += held.count
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
    private func appendKept(_ call: any KeptStatement.Type, _ event: LedgerEvent, encoded: String) async throws(StorageError) -> AppendOutcome? {
        let app = app
        guard let likely = likelySubscriber(of: event) else { return nil }
        let kept = projections.revision(app, likely)
        guard kept != 0, var facts = projections.facts(app, likely, revision: kept) else { return nil }
        facts.apply(event)
        let projection = try Self.encodeProjection(facts, appUserID: likely)
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
    private struct AppendStart {
        var appUserID: String?
        var owner: String?
        var sequence: Int64?
        var facts: SubscriberFacts?
    }

    private enum AppendStep {
        case started(AppendStart)
        case finished(AppendOutcome)
    }

    /// An append's first steps, statement by statement: lock the purchase, find its owner (or the
    /// subscriber its appAccountToken was registered for), lock the subscriber, admit, insert, and read
    /// the projection. ``AppendRoutine`` does the same in one call.
    private func start(
        _ event: LedgerEvent, encoded: String, admit: (@Sendable (SubscriberFacts) -> Bool)?, _ session: any SQLSession
    ) async throws(StorageError) -> AppendStep {
        if let original = event.originalTransactionID {
            try await session.lock(Self.purchaseLock(app, original))
        }
        var appUserID = event.appUserID
        var owner: String?
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
                "SELECT 1 AS known FROM ledger_events WHERE app_id = ? AND idempotency_key = ?", [.text(app), .text(event.idempotencyKey)])
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
    private func likelySubscriber(of event: LedgerEvent) -> String? {
        event.appUserID ?? event.originalTransactionID.flatMap { projections.lastOwner(app, $0) }
    }

    /// The binds ``AppendRoutine``'s call takes, which ``KeptAppendRoutine``'s begins with: the event,
    /// its stored JSON, and the likely subscriber with the revision kept for them.
    private func routineBinds(_ event: LedgerEvent, encoded: String, likely: String?, kept: Int64) -> [SQLValue] {
        [
            .text(app), SQLValue(event.originalTransactionID), SQLValue(event.appUserID),
            SQLValue(event.appAccountToken.map { $0.uuidString.lowercased() }), SQLValue(likely), .integer(kept),
            .text(event.id.uuidString), .text(event.idempotencyKey), .text(event.source.rawValue), SQLValue(event.notificationUUID),
            SQLValue(event.transactionID), SQLValue(event.signedDate), SQLValue(event.receivedAt), .text(encoded),
            SQLValue(event.rawSignedPayload),
        ]
    }

    /// An append's first steps in one call of the engine's routine (``AppendRoutine``).
    private func startInOneCall(_ call: any KeptStatement.Type, _ event: LedgerEvent, encoded: String, _ session: any SQLSession) async throws(StorageError) -> AppendStart {
        // The routine leaves the projection out only when it is the likely subscriber's and at the kept
        // revision.
        let likely = likelySubscriber(of: event)
        let kept = likely.map { projections.revision(app, $0) } ?? 0
        guard let row = try await session.execute(call, routineBinds(event, encoded: encoded, likely: likely, kept: kept)).first else {
            throw StorageError(.queryFailed, "the append routine returned no row")
        }
        let appUserID = row["o_app_user_id"]?.text
        var start = AppendStart(appUserID: appUserID, owner: row["o_owner"]?.text, sequence: row["o_sequence"]?.integer)
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

    func transfer(originalTransactionID original: String, to newOwner: String, at: Date) async throws(StorageError) -> String? {
        let app = app
        return try await engine.transaction { session throws(StorageError) in
            try await session.lock(Self.purchaseLock(app, original))
            guard let previous = try await Self.owner(app, original, session), previous != newOwner else {
                return try await Self.owner(app, original, session)
            }
            for subscriber in [previous, newOwner].sorted() {
                try await session.lock(Self.subscriberLock(app, subscriber))
            }
            var previousFacts = try await self.projection(app, previous, session) ?? SubscriberFacts(appUserID: previous)
            var newFacts = try await self.projection(app, newOwner, session) ?? SubscriberFacts(appUserID: newOwner)
            let transfer = PurchaseTransfer(originalTransactionID: original, from: previous, to: newOwner, at: at, id: UUID(), outgoingID: UUID())
            let outgoing = transfer.outgoing
            let incoming = transfer.incoming(carrying: previousFacts.purchases[original])
            for event in [outgoing, incoming] {
                _ = try await self.insert(event, appUserID: event.appUserID, encoded: try Self.encode(event), session)
            }
            _ = try await session.execute(
                "UPDATE purchase_links SET app_user_id = ?, linked_at = ? WHERE app_id = ? AND original_transaction_id = ?",
                [.text(newOwner), SQLValue(at), .text(app), .text(original)])
            previousFacts.apply(outgoing)
            newFacts.apply(incoming)
            try await self.store(previousFacts, app: app, appUserID: previous, addedEvents: 1, at: at, session)
            try await self.store(newFacts, app: app, appUserID: newOwner, addedEvents: 1, at: at, session)
            return previous
        }
    }

    func events(appUserID: String) async throws(StorageError) -> [LedgerEvent] {
        try await engine.read { session throws(StorageError) in
            try Self.decodeEvents(await session.execute(
                "SELECT event, signed_payload FROM ledger_events WHERE app_id = ? AND app_user_id = ? ORDER BY sequence",
                [.text(app), .text(appUserID)]))
        }
    }

    func events(
        appUserIDs: Set<String>, after sequence: Int64
    ) async throws(StorageError) -> [(sequence: Int64, appUserID: String, event: LedgerEvent)] {
        guard !appUserIDs.isEmpty else { return [] }
        let app = app
        let list = SQLValue.inList(appUserIDs.sorted().map(SQLValue.text))
        return try await engine.read { session throws(StorageError) in
            let rows = try await session.execute(
                """
                SELECT sequence, app_user_id, event FROM ledger_events
                WHERE app_id = ? AND sequence > ? AND app_user_id IN \(list.placeholders) ORDER BY sequence
                """, [.text(app), .integer(sequence)] + list.values)
            let events = try Self.decodeEvents(rows)
            return try zip(rows, events).map { row, event throws(StorageError) in
                guard let sequence = row["sequence"]?.integer, let appUserID = row["app_user_id"]?.text else {
                    throw StorageError(.corruptRecord, "a ledger row has no sequence or owner")
                }
                return (sequence, appUserID, event)
            }
        }
    }

    func latestGlobalEvent(source: LedgerEventSource) async throws(StorageError) -> LedgerEvent? {
        try await engine.read { session throws(StorageError) in
            try Self.decodeEvents(await session.execute(LedgerStatements.latestGlobalEvent, [.text(app), .text(source.rawValue)])).first
        }
    }

    func heldEvents(originalTransactionID: String) async throws(StorageError) -> [LedgerEvent] {
        try await engine.read { session throws(StorageError) in
            try Self.decodeEvents(await session.execute(
                "SELECT event, signed_payload FROM ledger_events WHERE app_id = ? AND original_transaction_id = ? AND app_user_id IS NULL ORDER BY sequence",
                [.text(app), .text(originalTransactionID)]))
        }
    }

    func heldPurchases() async throws(StorageError) -> [String] {
        try await engine.read { session throws(StorageError) in
            try await session.execute(
                """
                SELECT DISTINCT original_transaction_id FROM ledger_events
                WHERE app_id = ? AND app_user_id IS NULL AND original_transaction_id IS NOT NULL ORDER BY original_transaction_id
                """, [.text(app)]
            ).compactMap { $0["original_transaction_id"]?.text }
        }
    }

    func heldEventCount() async throws(StorageError) -> Int {
        try await engine.read { session throws(StorageError) in
            Int(try await session.execute(
                "SELECT COUNT(*) AS n FROM ledger_events WHERE app_id = ? AND app_user_id IS NULL AND original_transaction_id IS NOT NULL",
                [.text(app)]
            ).first?["n"]?.integer ?? 0)
        }
    }

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

    func owner(originalTransactionID: String) async throws(StorageError) -> String? {
        try await engine.read { session throws(StorageError) in try await Self.owner(app, originalTransactionID, session) }
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

    func owners(originalTransactionIDs: Set<String>) async throws(StorageError) -> [String: String] {
        guard !originalTransactionIDs.isEmpty else { return [:] }
        let app = app
        return try await engine.read { session throws(StorageError) in
            var owners: [String: String] = [:]
            let list = SQLValue.inList(originalTransactionIDs.sorted().map(SQLValue.text))
            for row in try await session.execute(
                """
                SELECT original_transaction_id, app_user_id FROM purchase_links
                WHERE app_id = ? AND original_transaction_id IN \(list.placeholders)
                """, [.text(app)] + list.values)
            {
                if let original = row["original_transaction_id"]?.text, let owner = row["app_user_id"]?.text { owners[original] = owner }
            }
            return owners
        }
    }

    func appIDs() async throws(StorageError) -> [String] {
        try await engine.read { session throws(StorageError) in
            try await session.execute(
                "SELECT app_id FROM ledger_events UNION SELECT app_id FROM subscribers ORDER BY app_id", []
            ).compactMap { $0["app_id"]?.text }
        }
    }

    func consumerEvents(
        _ consumer: String, limit: Int, since: Date
    ) async throws(StorageError) -> (position: Int64, events: [(sequence: Int64, event: LedgerEvent)]) {
        let cursor = LedgerCursor(app: app, consumer: consumer)
        let horizon = try await engine.readHorizon()
        let app = app
        let limit = max(1, limit)
        return try await engine.transaction { session throws(StorageError) in
            let known = try await session.execute(
                "SELECT sequence FROM ledger_cursors WHERE app_id = ? AND consumer = ?", [.text(app), .text(consumer)]
            ).first?["sequence"]?.integer
            let position: Int64
            if let known {
                position = known
            } else {
                position = try await session.execute(
                    "SELECT MAX(sequence) AS start FROM ledger_events WHERE app_id = ? AND received_at < ? AND sequence <= ?",
                    [.text(app), SQLValue(since), .integer(horizon)]
                ).first?["start"]?.integer ?? 0
                try await cursor.advance(to: position, session)
            }
            let rows = try await session.execute(
                "SELECT sequence, event FROM ledger_events WHERE app_id = ? AND sequence > ? AND sequence <= ? ORDER BY sequence LIMIT ?",
                [.text(app), .integer(position), .integer(horizon), .integer(Int64(limit))])
            let events = try Self.decodeEvents(rows)
            return (position, zip(rows, events).map { ($0["sequence"]?.integer ?? 0, $1) })
        }
    }

    func advanceConsumer(_ consumer: String, from position: Int64, to sequence: Int64) async throws(StorageError) -> Bool {
        let app = app
        return try await engine.transaction { session throws(StorageError) in
            try await session.lock("entitle.consumer.\(app).\(consumer)")
            let current = try await session.execute(
                "SELECT sequence FROM ledger_cursors WHERE app_id = ? AND consumer = ?", [.text(app), .text(consumer)]
            ).first?["sequence"]?.integer ?? 0
            guard current == position else { return false }
            try await LedgerCursor(app: app, consumer: consumer).advance(to: sequence, session)
            return true
        }
    }

    func acquireJob(_ job: String, holder: String, now: Date, until: Date) async throws(StorageError) -> JobLease? {
        let app = app
        return try await engine.transaction { session throws(StorageError) in
            try await session.lock("entitle.job.\(app).\(job)")
            let row = try await session.execute(
                "SELECT mark, holder, lease_until FROM job_runs WHERE app_id = ? AND job = ?", [.text(app), .text(job)]
            ).first
            if let row, let current = row["holder"]?.text, current != holder, let leaseUntil = row["lease_until"]?.integer,
                leaseUntil > SQLValue(now).integer ?? 0
            {
                return nil
            }
            _ = try await session.execute(
                """
                INSERT INTO job_runs (app_id, job, mark, holder, lease_until) VALUES (?, ?, NULL, ?, ?)
                ON CONFLICT (app_id, job) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
                """, [.text(app), .text(job), .text(holder), SQLValue(until)])
            let mark = row?["mark"]?.date
            return JobLease(job: job, holder: holder, until: until, mark: mark)
        }
    }

    func completeJob(_ lease: JobLease, mark: Date?) async throws(StorageError) {
        let app = app
        try await engine.transaction { session throws(StorageError) in
            _ = try await session.execute(
                "UPDATE job_runs SET mark = COALESCE(?, mark), holder = NULL, lease_until = NULL WHERE app_id = ? AND job = ? AND holder = ?",
                [SQLValue(mark), .text(app), .text(lease.job), .text(lease.holder)])
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

    func eventCount() async throws(StorageError) -> Int {
        try await engine.read { session throws(StorageError) in
            Int(try await session.execute("SELECT COUNT(*) AS n FROM ledger_events WHERE app_id = ?", [.text(app)]).first?["n"]?.integer ?? 0)
        }
    }

    func ping() async throws(StorageError) {
        _ = try await engine.read { session throws(StorageError) in try await session.execute(LedgerStatements.Ping.self, []) }
    }

    func keyStore() -> any KeyStore {
        SQLKeyStore(engine: engine)
    }

    func adminJobStore() -> any AdminJobStore {
        SQLAdminJobStore(engine: engine, app: app)
    }

    func dashboardSessionStore() -> any DashboardSessionStore {
        SQLDashboardSessionStore(engine: engine)
    }

    func webhookStore() -> any WebhookStore {
        SQLWebhookStore(engine: engine, app: app)
    }

    func setAsideStore() -> any SetAsideStore {
        SQLSetAsideStore(engine: engine, app: app)
    }

    func analyticsStore() -> any AnalyticsStore {
        SQLAnalyticsStore(engine: engine, app: app, aggregates: aggregates)
    }

    func close() async {
        await engine.close()
    }

    // MARK: - Statements shared by the operations

    /// Stores `event` for `appUserID` unless its idempotency key is known; returns its sequence, or
    /// `nil` for a duplicate.
    private func insert(
        _ event: LedgerEvent, appUserID: String?, encoded: String, _ session: any SQLSession
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
                .text(event.id.uuidString), .text(app), .text(event.idempotencyKey), SQLValue(appUserID), .text(event.source.rawValue),
                SQLValue(event.notificationUUID), SQLValue(event.transactionID), SQLValue(event.originalTransactionID),
                SQLValue(event.signedDate), SQLValue(event.receivedAt), .text(encoded),
                SQLValue(event.appAccountToken.map { $0.uuidString.lowercased() }), SQLValue(event.rawSignedPayload),
            ]
        ).first?["sequence"]?.integer
    }

    /// The advisory lock serialising writers of one subscriber of `app` (PostgreSQL; SQLite has one writer).
    static func subscriberLock(_ app: String, _ appUserID: String) -> String { "subscriber:\(app)\u{1F}\(appUserID)" }

    /// The advisory lock serialising writers of one purchase of `app`.
    static func purchaseLock(_ app: String, _ original: String) -> String { "purchase:\(app)\u{1F}\(original)" }

    private static func tokenOwner(_ app: String, _ token: UUID, _ session: any SQLSession) async throws(StorageError) -> String? {
        try await session.execute(
            "SELECT app_user_id FROM account_tokens WHERE app_id = ? AND token = ?", [.text(app), .text(token.uuidString.lowercased())]
        ).first?["app_user_id"]?.text
    }

    private static func owner(_ app: String, _ original: String, _ session: any SQLSession) async throws(StorageError) -> String? {
        try await session.execute(
            "SELECT app_user_id FROM purchase_links WHERE app_id = ? AND original_transaction_id = ?", [.text(app), .text(original)]
        ).first?["app_user_id"]?.text
    }

    /// `appUserID`'s projection: the kept copy when the stored revision is the kept one (the JSON
    /// is then not even read), else decoded from the row and kept.
    private func projection(_ app: String, _ appUserID: String, _ session: any SQLSession) async throws(StorageError) -> SubscriberFacts? {
        let kept = projections.revision(app, appUserID)
        guard let row = try await session.execute(LedgerStatements.ProjectionRead.self, [.integer(kept), .text(app), .text(appUserID)]).first
        else { return nil }
        return try await projection(app, appUserID, row: row, kept: kept, session)
    }

    /// The projection from its row (`revision`, and `projection` unless the revision was `kept`).
    private func projection(
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

    private static func decodeProjection(_ json: String?, appUserID: String) throws(StorageError) -> SubscriberFacts? {
        guard let json else { return nil }
        do {
            return try decoder().decode(SubscriberFacts.self, from: Data(json.utf8))
        } catch {
            throw StorageError(.corruptRecord, "the projection of \(appUserID) does not decode", underlying: error)
        }
    }

    /// Stores `facts` as `appUserID`'s projection under a new revision, and keeps them.
    private func store(
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

    private static func encodeProjection(_ facts: SubscriberFacts, appUserID: String) throws(StorageError) -> String {
        if let json = StoredProjectionWriter.json(facts) { return json }
        do {
            return String(decoding: try encoder.encode(facts), as: UTF8.self)
        } catch {
            throw StorageError(.corruptRecord, "the projection of \(appUserID) does not encode", underlying: error)
        }
    }

    /// The event as stored in `event`: without its signed payload, which has a column of its own.
    private static func encode(_ event: LedgerEvent) throws(StorageError) -> String {
        var stored = event
        stored.rawSignedPayload = nil
        if let json = StoredEventWriter.json(stored) { return json }
        do {
            return String(decoding: try encoder.encode(stored), as: UTF8.self)
        } catch {
            throw StorageError(.corruptRecord, "the event \(event.id) does not encode", underlying: error)
        }
    }

    static func decodeEvents(_ rows: [[String: SQLValue]]) throws(StorageError) -> [LedgerEvent] {
        let decoder = decoder()
        var events: [LedgerEvent] = []
        events.reserveCapacity(rows.count)
        for row in rows {
            guard let json = row["event"]?.text else { throw StorageError(.corruptRecord, "a ledger row has no event") }
            do {
                var event = try StoredEventReader.event(json) ?? decoder.decode(LedgerEvent.self, from: Data(json.utf8))
                if let signed = row["signed_payload"]?.text { event.rawSignedPayload = signed }
                events.append(event)
            } catch {
                throw StorageError(.corruptRecord, "a ledger event does not decode", underlying: error)
            }
        }
        return events
    }
}

extension Optional {
    /// `map` for an async, throwing transform.
    func asyncMap<T>(_ transform: (Wrapped) async throws(StorageError) -> T) async throws(StorageError) -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
