import EntitleCore
import Foundation

/// An app's webhooks in the ledger's database, written once over ``SQLEngine``.
final class SQLWebhookStore: WebhookStore {
    let engine: any SQLEngine
    let app: BundleID

    init(engine: any SQLEngine, app: BundleID) {
        self.engine = engine
        self.app = app
    }

    // MARK: - Endpoints

    func addEndpoint(_ endpoint: WebhookEndpoint) async throws(StorageError) {
        let app = app
        let secrets = try Self.json(endpoint.secrets)
        try await engine.transaction { session throws(StorageError) in
            _ = try await session.execute(
                """
                INSERT INTO webhook_endpoints (id, app_id, url, event_types, secrets, description, created_at, removed_at, consecutive_failures, paused_until)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, NULL)
                """,
                [.text(endpoint.id), .id(app), .text(endpoint.url), .text(endpoint.eventTypes.joined(separator: ",")), .text(secrets),
                 SQLValue(endpoint.description), SQLValue(endpoint.createdAt), SQLValue(endpoint.removedAt)])
        }
    }

    func endpoints(includingRemoved: Bool) async throws(StorageError) -> [WebhookEndpoint] {
        let app = app
        return try await engine.read { session throws(StorageError) in
            try Self.endpoints(await session.execute(
                "SELECT * FROM webhook_endpoints WHERE app_id = ?\(includingRemoved ? "" : " AND removed_at IS NULL") ORDER BY created_at, id",
                [.id(app)]))
        }
    }

    func endpoint(id: String) async throws(StorageError) -> WebhookEndpoint? {
        let app = app
        return try await engine.read { session throws(StorageError) in
            try Self.endpoints(await session.execute("SELECT * FROM webhook_endpoints WHERE app_id = ? AND id = ?", [.id(app), .text(id)])).first
        }
    }

    func updateEndpoint(_ endpoint: WebhookEndpoint) async throws(StorageError) {
        let app = app
        let secrets = try Self.json(endpoint.secrets)
        try await engine.transaction { session throws(StorageError) in
            _ = try await session.execute(
                "UPDATE webhook_endpoints SET url = ?, event_types = ?, secrets = ?, description = ?, removed_at = ? WHERE app_id = ? AND id = ?",
                [.text(endpoint.url), .text(endpoint.eventTypes.joined(separator: ",")), .text(secrets), SQLValue(endpoint.description),
                 SQLValue(endpoint.removedAt), .id(app), .text(endpoint.id)])
        }
    }

    // MARK: - Publishing

    func snapshots(appUserIDs: Set<AppUserID>) async throws(StorageError) -> [AppUserID: WebhookSnapshot] {
        guard !appUserIDs.isEmpty else { return [:] }
        let app = app
        return try await engine.read { session throws(StorageError) in
            var snapshots: [AppUserID: WebhookSnapshot] = [:]
            let list = SQLValue.inList(appUserIDs.sorted().map { SQLValue.id($0) })
            for row in try await session.execute(
                "SELECT app_user_id, facts, at FROM webhook_snapshots WHERE app_id = ? AND app_user_id IN \(list.placeholders)",
                [.id(app)] + list.values)
            {
                guard let appUserID: AppUserID = try row.nullableID("app_user_id"), let text = try row.nullableText("facts"), let at = try row.nullableDate("at"),
                    let facts = try? StoredJSON.decoder().decode(SubscriberFacts.self, from: Data(text.utf8))
                else { throw StorageError(.corruptRecord, "a webhook snapshot does not decode") }
                snapshots[appUserID] = WebhookSnapshot(facts: facts, at: at)
            }
            return snapshots
        }
    }

    func publish(_ batch: WebhookBatch) async throws(StorageError) -> Bool {
        var snapshots: [(AppUserID, String, Date)] = []
        for (appUserID, snapshot) in batch.snapshots.sorted(by: { $0.key < $1.key }) {
            guard let data = try? StoredJSON.encoder.encode(snapshot.facts) else {
                throw StorageError(.corruptRecord, "the facts of \(appUserID) do not encode")
            }
            snapshots.append((appUserID, String(decoding: data, as: UTF8.self), snapshot.at))
        }
        let encoded = snapshots
        do {
            return try await write(batch, snapshots: encoded)
        } catch where error.code == .conflict {
            return false
        }
    }

    private func write(_ batch: WebhookBatch, snapshots encoded: [(AppUserID, String, Date)]) async throws(StorageError) -> Bool {
        let app = app
        return try await engine.transaction { session throws(StorageError) in
            if let cursor = batch.cursor {
                try await session.lock(.consumer(app, cursor.consumer))
                let position = try await LedgerCursor(app: app, consumer: cursor.consumer).position(session)
                guard position == cursor.from else { return false }
                try await LedgerCursor(app: app, consumer: cursor.consumer).advance(to: cursor.to, session)
            }
            for entry in batch.schedule {
                _ = try await session.execute(
                    """
                    INSERT INTO scheduled_events (app_id, app_user_id, kind, period_key, due_at, fired_at) VALUES (?, ?, ?, ?, ?, NULL)
                    ON CONFLICT (app_id, app_user_id, kind, period_key) DO NOTHING
                    """, [.id(app), .id(entry.appUserID), .text(entry.kind.rawValue), .text(entry.periodKey), SQLValue(entry.dueAt)])
            }
            for entry in batch.fired {
                let marked = try await session.execute(
                    """
                    UPDATE scheduled_events SET fired_at = ?
                    WHERE app_id = ? AND app_user_id = ? AND kind = ? AND period_key = ? AND fired_at IS NULL RETURNING period_key
                    """, [SQLValue(batch.firedAt), .id(app), .id(entry.appUserID), .text(entry.kind.rawValue), .text(entry.periodKey)])
                guard !marked.isEmpty else { throw StorageError(.conflict, "a schedule entry was fired by another instance") }
            }
            for (appUserID, facts, at) in encoded {
                _ = try await session.execute(
                    """
                    INSERT INTO webhook_snapshots (app_id, app_user_id, facts, at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (app_id, app_user_id) DO UPDATE SET facts = excluded.facts, at = excluded.at
                    """, [.id(app), .id(appUserID), .text(facts), SQLValue(at)])
            }
            for delivery in batch.deliveries {
                _ = try await session.execute(
                    """
                    INSERT INTO webhook_deliveries
                        (app_id, endpoint_id, event_id, event_type, app_user_id, occurred_at, payload, status, attempts, next_attempt_at, created_at,
                         trace_parent)
                    VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)
                    ON CONFLICT (endpoint_id, event_id) DO NOTHING
                    """,
                    [.id(app), .text(delivery.endpointID), .text(delivery.eventID), .text(delivery.eventType), .id(delivery.appUserID),
                     SQLValue(delivery.occurredAt), .text(delivery.payload), SQLValue(delivery.nextAttemptAt), SQLValue(delivery.createdAt),
                     SQLValue(delivery.traceParent)])
            }
            return true
        }
    }

    func dueSchedule(at now: Date, limit: Int) async throws(StorageError) -> [ScheduledEvent] {
        let app = app
        return try await engine.read { session throws(StorageError) in
            try Self.schedule(await session.execute(
                "SELECT * FROM scheduled_events WHERE app_id = ? AND fired_at IS NULL AND due_at <= ? ORDER BY due_at, app_user_id, kind, period_key LIMIT ?",
                [.id(app), SQLValue(now), .integer(Int64(max(1, limit)))]))
        }
    }

    func dueSchedule(appUserIDs: Set<AppUserID>, by now: Date) async throws(StorageError) -> [ScheduledEvent] {
        guard !appUserIDs.isEmpty else { return [] }
        let app = app
        let list = SQLValue.inList(appUserIDs.sorted().map { SQLValue.id($0) })
        return try await engine.read { session throws(StorageError) in
            try Self.schedule(await session.execute(
                """
                SELECT * FROM scheduled_events
                WHERE app_id = ? AND fired_at IS NULL AND due_at <= ? AND app_user_id IN \(list.placeholders)
                ORDER BY due_at, app_user_id, kind, period_key
                """, [.id(app), SQLValue(now)] + list.values))
        }
    }

    // MARK: - Delivering

    func dueDeliveries(at now: Date, limit: Int) async throws(StorageError) -> [WebhookDelivery] {
        let app = app
        return try await engine.read { session throws(StorageError) in
            try Self.deliveries(await session.execute(
                """
                SELECT d.* FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
                WHERE d.app_id = ? AND d.status = 'pending' AND d.next_attempt_at <= ? AND e.removed_at IS NULL
                  AND (e.paused_until IS NULL OR e.paused_until <= ?)
                  AND NOT EXISTS (
                      SELECT 1 FROM webhook_deliveries p
                      WHERE p.endpoint_id = d.endpoint_id AND p.app_user_id = d.app_user_id AND p.status = 'pending' AND p.id < d.id)
                ORDER BY d.id LIMIT ?
                """, [.id(app), SQLValue(now), SQLValue(now), .integer(Int64(max(1, limit)))]))
        }
    }

    /// ``WebhookDelivery/redactedOnceDelivered`` as an SQL list (the store's own constants, quoted).
    private static let redactedTypes = WebhookDelivery.redactedOnceDelivered.sorted().map { "'\($0)'" }.joined(separator: ", ")

    func recordAttempts(_ outcomes: [WebhookAttemptOutcome]) async throws(StorageError) {
        guard !outcomes.isEmpty else { return }
        let app = app
        try await engine.transaction { session throws(StorageError) in
            for outcome in outcomes {
                let (attempt, retryAt) = (outcome.attempt, outcome.retryAt)
                _ = try await session.execute(
                    """
                    INSERT INTO webhook_attempts (delivery_id, attempt, at, status, latency_ms, error) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (delivery_id, attempt) DO NOTHING
                    """,
                    [.integer(attempt.deliveryID), .integer(Int64(attempt.attempt)), SQLValue(attempt.at), SQLValue(attempt.status.map(Int64.init)),
                     .integer(Int64(attempt.latencyMilliseconds)), SQLValue(attempt.error)])
                let status: WebhookDelivery.Status = attempt.succeeded ? .delivered : (retryAt == nil ? .failed : .pending)
                // A delivered payload that names a customer no longer kept is redacted in the same statement.
                _ = try await session.execute(
                    """
                    UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, last_status = ?, last_error = ?, delivered_at = ?,
                        payload = CASE WHEN ? = 'delivered' AND event_type IN (\(Self.redactedTypes)) THEN ? ELSE payload END
                    WHERE app_id = ? AND id = ?
                    """,
                    [.text(status.rawValue), .integer(Int64(attempt.attempt)), SQLValue(retryAt ?? attempt.at), SQLValue(attempt.status.map(Int64.init)),
                     SQLValue(attempt.error), SQLValue(attempt.succeeded ? attempt.at : nil), .text(status.rawValue), .text(WebhookDelivery.redactedPayload),
                     .id(app), .integer(attempt.deliveryID)])
            }
            // Each endpoint's health after its last attempt of the batch: a success ends a run of failures.
            var health: [String: (failures: Int, pauseUntil: Date?, reset: Bool)] = [:]
            for outcome in outcomes {
                var entry = health[outcome.endpointID] ?? (0, nil, false)
                if outcome.attempt.succeeded {
                    entry = (0, nil, true)
                } else {
                    entry.failures += 1
                    entry.pauseUntil = outcome.pauseUntil
                }
                health[outcome.endpointID] = entry
            }
            for (endpointID, entry) in health.sorted(by: { $0.key < $1.key }) {
                _ = try await session.execute(
                    """
                    UPDATE webhook_endpoints SET consecutive_failures = \(entry.reset ? "" : "consecutive_failures + ")?, paused_until = ?
                    WHERE app_id = ? AND id = ?
                    """, [.integer(Int64(entry.failures)), SQLValue(entry.pauseUntil), .id(app), .text(endpointID)])
            }
        }
    }

    func deliveries(endpointID: String?, appUserID: AppUserID?, status: WebhookDelivery.Status?, limit: Int) async throws(StorageError) -> [WebhookDelivery] {
        var sql = "SELECT * FROM webhook_deliveries WHERE app_id = ?"
        var binds: [SQLValue] = [.id(app)]
        if let endpointID {
            sql += " AND endpoint_id = ?"
            binds.append(.text(endpointID))
        }
        if let appUserID {
            sql += " AND app_user_id = ?"
            binds.append(.id(appUserID))
        }
        if let status {
            sql += " AND status = ?"
            binds.append(.text(status.rawValue))
        }
        sql += " ORDER BY id DESC LIMIT ?"
        binds.append(.integer(Int64(max(1, limit))))
        let (query, values) = (sql, binds)
        return try await engine.read { session throws(StorageError) in try Self.deliveries(await session.execute(query, values)) }
    }

    func delivery(id: Int64) async throws(StorageError) -> WebhookDelivery? {
        let app = app
        return try await engine.read { session throws(StorageError) in
            try Self.deliveries(await session.execute("SELECT * FROM webhook_deliveries WHERE app_id = ? AND id = ?", [.id(app), .integer(id)])).first
        }
    }

    func attempts(deliveryID: Int64) async throws(StorageError) -> [WebhookAttempt] {
        let app = app
        return try await engine.read { session throws(StorageError) in
            try await session.execute(
                """
                SELECT a.* FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
                WHERE d.app_id = ? AND a.delivery_id = ? ORDER BY a.attempt
                """, [.id(app), .integer(deliveryID)]
            ).map { row throws(StorageError) in
                guard let attempt = try row.nullableInteger("attempt"), let at = try row.nullableDate("at"), let latency = try row.nullableInteger("latency_ms") else {
                    throw StorageError(.corruptRecord, "a webhook attempt row is incomplete")
                }
                return WebhookAttempt(
                    deliveryID: deliveryID, attempt: Int(attempt), at: at, status: try row.nullableInteger("status").map { Int($0) },
                    latencyMilliseconds: Int(latency), error: try row.nullableText("error"))
            }
        }
    }

    func replay(endpointID: String, ids: [Int64]?, at now: Date) async throws(StorageError) -> Int {
        let app = app
        return try await engine.transaction { session throws(StorageError) in
            var sql = "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ? WHERE app_id = ? AND endpoint_id = ? AND status = 'failed'"
            var binds: [SQLValue] = [SQLValue(now), .id(app), .text(endpointID)]
            if let ids {
                guard !ids.isEmpty else { return 0 }
                let list = SQLValue.inList(ids.map(SQLValue.integer))
                sql += " AND id IN " + list.placeholders
                binds += list.values
            }
            let rows = try await session.execute(sql + " RETURNING id", binds)
            _ = try await session.execute(
                "UPDATE webhook_endpoints SET consecutive_failures = 0, paused_until = NULL WHERE app_id = ? AND id = ?", [.id(app), .text(endpointID)])
            return rows.count
        }
    }

    func unreadEvents(consumer: LedgerConsumer) async throws(StorageError) -> Int {
        let cursor = LedgerCursor(app: app, consumer: consumer)
        return try await engine.transaction { session throws(StorageError) in
            try await cursor.backlog(after: try await cursor.position(session), session)
        }
    }

    func deliveryCounts() async throws(StorageError) -> [WebhookDelivery.Status: Int] {
        let app = app
        return try await engine.read { session throws(StorageError) in
            var counts: [WebhookDelivery.Status: Int] = [:]
            for row in try await session.execute("SELECT status, COUNT(*) AS n FROM webhook_deliveries WHERE app_id = ? GROUP BY status", [.id(app)]) {
                if let status = try row.nullableText("status").flatMap(WebhookDelivery.Status.init) { counts[status] = Int(try row.nullableInteger("n") ?? 0) }
            }
            return counts
        }
    }

    // MARK: - Rows

    private static func json(_ strings: [String]) throws(StorageError) -> String {
        guard let data = try? JSONEncoder().encode(strings) else { throw StorageError(.corruptRecord, "the secrets do not encode") }
        return String(decoding: data, as: UTF8.self)
    }

    private static func endpoints(_ rows: [SQLRow]) throws(StorageError) -> [WebhookEndpoint] {
        try rows.map { row throws(StorageError) in
            guard let id = try row.nullableText("id"), let app: BundleID = try row.nullableID("app_id"), let url = try row.nullableText("url"), let types = try row.nullableText("event_types"),
                let secretsText = try row.nullableText("secrets"), let secrets = try? JSONDecoder().decode([String].self, from: Data(secretsText.utf8)),
                let created = try row.nullableDate("created_at")
            else { throw StorageError(.corruptRecord, "a webhook endpoint row is incomplete") }
            return WebhookEndpoint(
                id: id, app: app, url: url, eventTypes: types.split(separator: ",").map(String.init), secrets: secrets,
                description: try row.nullableText("description"), createdAt: created, removedAt: try row.nullableDate("removed_at"),
                consecutiveFailures: Int(try row.nullableInteger("consecutive_failures") ?? 0), pausedUntil: try row.nullableDate("paused_until"))
        }
    }

    private static func deliveries(_ rows: [SQLRow]) throws(StorageError) -> [WebhookDelivery] {
        try rows.map { row throws(StorageError) in
            guard let id = try row.nullableInteger("id"), let endpoint = try row.nullableText("endpoint_id"), let event = try row.nullableText("event_id"),
                let type = try row.nullableText("event_type"), let user: AppUserID = try row.nullableID("app_user_id"), let occurred = try row.nullableDate("occurred_at"),
                let payload = try row.nullableText("payload"), let status = try row.nullableText("status").flatMap(WebhookDelivery.Status.init),
                let next = try row.nullableDate("next_attempt_at"), let created = try row.nullableDate("created_at")
            else { throw StorageError(.corruptRecord, "a webhook delivery row is incomplete") }
            return WebhookDelivery(
                id: id, endpointID: endpoint, eventID: event, eventType: type, appUserID: user, occurredAt: occurred, payload: payload,
                status: status, attempts: Int(try row.nullableInteger("attempts") ?? 0), nextAttemptAt: next, lastStatus: try row.nullableInteger("last_status").map { Int($0) },
                lastError: try row.nullableText("last_error"), deliveredAt: try row.nullableDate("delivered_at"), createdAt: created,
                traceParent: row.has("trace_parent") ? try row.nullableText("trace_parent") : nil)
        }
    }

    private static func schedule(_ rows: [SQLRow]) throws(StorageError) -> [ScheduledEvent] {
        try rows.map { row throws(StorageError) in
            guard let user: AppUserID = try row.nullableID("app_user_id"), let kind = try row.nullableText("kind").flatMap(ScheduledEvent.Kind.init),
                let key = try row.nullableText("period_key"), let due = try row.nullableDate("due_at")
            else { throw StorageError(.corruptRecord, "a schedule row is incomplete") }
            return ScheduledEvent(appUserID: user, kind: kind, periodKey: key, dueAt: due, firedAt: try row.nullableDate("fired_at"))
        }
    }
}
