import EntitleCore
import Foundation

/// Customers' deletion (``SubscriberErasing``).
///
/// Who else names the customer is found without reading inside every event: the subscribers their own
/// events name (the other side of a transfer, a log-in merge, a household), and the app's restore and
/// operator events (claims and household memberships, recorded on the other side only), which are few.
extension SQLLedgerStore {
    func erase(_ erasure: SubscriberErasure, eventID: UUID) async throws(StorageError) -> ErasureOutcome? {
        let app = app
        let (subject, pseudonym) = (erasure.subject, erasure.pseudonym)
        // Read first, so that every subscriber touched is locked at once, in order.
        let (named, scanned) = try await engine.read { session throws(StorageError) in
            let own = try StoredJSON.decodeEvents(await session.execute(Self.ownEvents, [.id(app), .id(subject)]))
            return (Self.named(by: own, erasure), try await Self.mentions(of: erasure, after: 0, app: app, session))
        }
        let rows = rows
        let secure = engine.secureDeletion
        return try await engine.transaction { session throws(StorageError) in
            var others = named.union(scanned.owners).subtracting([subject, pseudonym])
            try await session.lock(([subject, pseudonym] + others).sorted().map { LedgerLock.subscriber(app, $0) })
            if let secure { _ = try await session.execute(secure.on, []) }
            let ownRows = try await session.execute(Self.ownEvents, [.id(app), .id(subject)])
            let own = try StoredJSON.decodeEvents(ownRows)
            let aliases = try await session.execute(
                "SELECT alias FROM subscriber_aliases WHERE app_id = ? AND (app_user_id = ? OR alias = ?)", [.id(app), .id(subject), .id(subject)])
            let projected = try await session.execute(
                "SELECT app_user_id FROM subscribers WHERE app_id = ? AND app_user_id = ?", [.id(app), .id(subject)])
            guard !own.isEmpty || !aliases.isEmpty || !projected.isEmpty else {
                if let secure { _ = try await session.execute(secure.off, []) }
                return nil
            }
            // Named since the first read: locked now (rare; another transaction may then have to wait for this one).
            let late = Self.named(by: own, erasure).subtracting(others).subtracting([subject, pseudonym])
            if !late.isEmpty {
                try await session.lock(late.sorted().map { LedgerLock.subscriber(app, $0) })
                others.formUnion(late)
            }
            for (row, event) in zip(ownRows, own) {
                try await Self.rewrite(row, as: erasure.erasingOwn(event), owner: pseudonym, app: app, session)
            }
            // The others' events that name the subject: on their ledgers, and among restore and operator
            // events that arrived since the first read.
            var mentions = 0
            let newer = try await Self.mentions(of: erasure, after: scanned.through, app: app, session)
            others.formUnion(newer.owners.subtracting([subject, pseudonym]))
            var rewritten = Set<Int64>()
            if !others.isEmpty {
                let list = SQLValue.inList(others.sorted().map { SQLValue.id($0) })
                let otherRows = try await session.execute(
                    "SELECT sequence, app_user_id, event FROM ledger_events WHERE app_id = ? AND app_user_id IN \(list.placeholders) ORDER BY sequence",
                    [.id(app)] + list.values)
                for (row, event) in zip(otherRows, try StoredJSON.decodeEvents(otherRows)) where erasure.mentionsSubject(event) {
                    guard let sequence = try row.nullableInteger("sequence"), rewritten.insert(sequence).inserted else { continue }
                    try await Self.rewrite(row, as: erasure.renaming(event), owner: try row.nullableID("app_user_id"), app: app, session)
                    mentions += 1
                }
            }
            for statement in Self.moved {
                _ = try await session.execute(statement, [.id(pseudonym), .id(app), .id(subject)])
            }
            for statement in Self.dropped {
                _ = try await session.execute(statement, [.id(app), .id(subject)])
            }
            _ = try await session.execute(
                "DELETE FROM subscriber_aliases WHERE app_id = ? AND (app_user_id = ? OR alias = ?)", [.id(app), .id(subject), .id(subject)])
            try await Self.rewriteSnapshots(erasure, others: others, app: app, session)
            try await Self.rewriteAuditLog(erasure, app: app, session)
            let marker = erasure.event(id: eventID)
            _ = try await rows.insert(marker, appUserID: pseudonym, encoded: StoredEventRow(json: try StoredJSON.encode(marker)), session)
            // Everyone touched, folded again from their rewritten events.
            let touched = [pseudonym] + others.sorted()
            let list = SQLValue.inList(touched.map { SQLValue.id($0) })
            let folded = try await session.execute(
                "SELECT app_user_id, sequence, event FROM ledger_events WHERE app_id = ? AND app_user_id IN \(list.placeholders) ORDER BY sequence",
                [.id(app)] + list.values)
            var byOwner: [AppUserID: [LedgerEvent]] = [:]
            for (row, event) in zip(folded, try StoredJSON.decodeEvents(folded)) {
                if let owner: AppUserID = try row.nullableID("app_user_id") { byOwner[owner, default: []].append(event) }
            }
            let gone = SQLValue.inList(([subject] + touched).map { SQLValue.id($0) })
            _ = try await session.execute("DELETE FROM subscribers WHERE app_id = ? AND app_user_id IN \(gone.placeholders)", [.id(app)] + gone.values)
            _ = try await rows.insertProjections(
                touched.compactMap { id in
                    byOwner[id].map { events in
                        (id, SubscriberFacts.fold(appUserID: id, events: events), events.count, events.map(\.receivedAt).max() ?? erasure.at)
                    }
                }, app: app, session)
            rows.projections.forget(app, subject)
            if let secure { _ = try await session.execute(secure.off, []) }
            return ErasureOutcome(events: own.count, mentions: mentions, others: others.sorted())
        }
    }

    private static let ownEvents = "SELECT sequence, app_user_id, event FROM ledger_events WHERE app_id = ? AND app_user_id = ? ORDER BY sequence"

    /// Rows that move to the pseudonym (binds: pseudonym, app, subject): the financial record.
    private static let moved = [
        "UPDATE purchase_links SET app_user_id = ? WHERE app_id = ? AND app_user_id = ?",
        "UPDATE analytics_contributions SET app_user_id = ? WHERE app_id = ? AND app_user_id = ?",
        "UPDATE set_aside_events SET app_user_id = ? WHERE app_id = ? AND app_user_id = ?",
    ]

    /// Rows of the subject that go (binds: app, subject): what was sent or would be sent about them.
    private static let dropped = [
        "DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE app_id = ? AND app_user_id = ?)",
        "DELETE FROM webhook_deliveries WHERE app_id = ? AND app_user_id = ?",
        "DELETE FROM scheduled_events WHERE app_id = ? AND app_user_id = ?",
        // A new account under the same ID must not receive purchases by the erased one's tokens (a derived
        // token is the ID's); the purchases themselves stay linked to the pseudonym.
        "DELETE FROM account_tokens WHERE app_id = ? AND app_user_id = ?",
    ]

    /// The subscribers the customer's own events name (the other side of a transfer, a merge, a household).
    private static func named(by events: [LedgerEvent], _ erasure: SubscriberErasure) -> Set<AppUserID> {
        var named = Set<AppUserID>()
        for event in events {
            switch event.payload {
            case .purchaseTransferred(_, let from, let to, _):
                if let from { named.insert(from) }
                named.insert(to)
            case .subscriberMerged(let from, let into, _):
                named.formUnion([from, into])
            case .householdJoined(let household, _), .householdLeft(let household, _):
                named.insert(household)
            default:
                break
            }
        }
        named.remove(erasure.subject)
        return named
    }

    /// The owners of the app's restore and operator events after `sequence` that name the subject, and
    /// the latest sequence read.
    private static func mentions(
        of erasure: SubscriberErasure, after sequence: Int64, app: BundleID, _ session: any SQLSession
    ) async throws(StorageError) -> (owners: Set<AppUserID>, through: Int64) {
        var owners = Set<AppUserID>()
        var through = sequence
        for source in [LedgerEventSource.restore, .admin] {
            let rows = try await session.execute(
                "SELECT sequence, app_user_id, event FROM ledger_events WHERE app_id = ? AND source = ? AND sequence > ? ORDER BY sequence",
                [.id(app), .text(source.rawValue), .integer(sequence)])
            for (row, event) in zip(rows, try StoredJSON.decodeEvents(rows)) {
                through = max(through, try row.nullableInteger("sequence") ?? through)
                if erasure.mentionsSubject(event), let owner: AppUserID = try row.nullableID("app_user_id"), owner != erasure.subject {
                    owners.insert(owner)
                }
            }
        }
        return (owners, through)
    }

    /// Stores `event` in place of the row's, under `owner`.
    private static func rewrite(_ row: SQLRow, as event: LedgerEvent, owner: AppUserID?, app: BundleID, _ session: any SQLSession) async throws(StorageError) {
        guard let sequence = try row.nullableInteger("sequence") else { throw StorageError(.corruptRecord, "a ledger row has no sequence") }
        // A row stored before signed payloads had their own column keeps its payload inside the event: moved out.
        _ = try await session.execute(
            "UPDATE ledger_events SET app_user_id = ?, idempotency_key = ?, event = ?, signed_payload = COALESCE(signed_payload, ?) WHERE app_id = ? AND sequence = ?",
            [SQLValue(owner), .text(event.idempotencyKey), .text(try StoredJSON.encode(event)), SQLValue(event.rawSignedPayload), .id(app),
             .integer(sequence)])
    }

    /// The audit log's mentions of the subject (the subject of an operator's change, or in the body it was
    /// sent with) under the pseudonym: the one rewrite of that append-only log.
    private static func rewriteAuditLog(_ erasure: SubscriberErasure, app: BundleID, _ session: any SQLSession) async throws(StorageError) {
        _ = try await session.execute(
            "UPDATE audit_log SET subject = ? WHERE app_id = ? AND subject = ?", [.id(erasure.pseudonym), .id(app), .id(erasure.subject)])
        let named = AuditEntry.jsonText(of: erasure.subject.rawValue)
        let pattern = "%" + named.replacingOccurrences(of: "!", with: "!!").replacingOccurrences(of: "%", with: "!%").replacingOccurrences(of: "_", with: "!_") + "%"
        for row in try await session.execute(
            "SELECT sequence, request FROM audit_log WHERE app_id = ? AND request LIKE ? ESCAPE '!'", [.id(app), .text(pattern)])
        {
            guard let sequence = try row.nullableInteger("sequence"), let request = try row.nullableText("request"), request.contains(named) else { continue }
            _ = try await session.execute(
                "UPDATE audit_log SET request = ? WHERE app_id = ? AND sequence = ?",
                [.text(request.replacingOccurrences(of: named, with: AuditEntry.jsonText(of: erasure.pseudonym.rawValue))), .id(app), .integer(sequence)])
        }
    }

    /// The webhook snapshots: the subject's erased under the pseudonym, the others' renamed.
    private static func rewriteSnapshots(
        _ erasure: SubscriberErasure, others: Set<AppUserID>, app: BundleID, _ session: any SQLSession
    ) async throws(StorageError) {
        let ids = [erasure.subject] + others.sorted()
        let list = SQLValue.inList(ids.map { SQLValue.id($0) })
        let rows = try await session.execute(
            "SELECT app_user_id, facts, at FROM webhook_snapshots WHERE app_id = ? AND app_user_id IN \(list.placeholders)", [.id(app)] + list.values)
        for row in rows {
            guard let owner: AppUserID = try row.nullableID("app_user_id"), let text = try row.nullableText("facts"), let at = try row.nullableDate("at"),
                let facts = try? StoredJSON.decoder().decode(SubscriberFacts.self, from: Data(text.utf8))
            else { throw StorageError(.corruptRecord, "a webhook snapshot does not decode") }
            let isSubject = owner == erasure.subject
            let rewritten = isSubject ? erasure.erasingOwn(facts) : erasure.renaming(facts)
            guard let data = try? StoredJSON.encoder.encode(rewritten) else { throw StorageError(.corruptRecord, "a webhook snapshot does not encode") }
            _ = try await session.execute("DELETE FROM webhook_snapshots WHERE app_id = ? AND app_user_id = ?", [.id(app), .id(owner)])
            _ = try await session.execute(
                "INSERT INTO webhook_snapshots (app_id, app_user_id, facts, at) VALUES (?, ?, ?, ?)",
                [.id(app), .id(isSubject ? erasure.pseudonym : owner), .text(String(decoding: data, as: UTF8.self)), SQLValue(at)])
        }
    }
}
