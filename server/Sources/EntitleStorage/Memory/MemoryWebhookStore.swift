import EntitleCore
import Foundation

/// An app's webhooks in a ``MemoryDatabase`` (``WebhookStore``).
final class MemoryWebhookStore: WebhookStore {
    let database: MemoryDatabase
    let app: BundleID

    init(database: MemoryDatabase, app: BundleID) {
        self.database = database
        self.app = app
    }

    /// Runs `body` as one transaction on the app's webhooks.
    private func webhooks<Result>(_ body: (inout MemoryWebhooks) throws(StorageError) -> Result) throws(StorageError) -> Result {
        let app = app
        return try database.transaction { state throws(StorageError) in
            var webhooks = state.webhooks[app] ?? MemoryWebhooks()
            let result = try body(&webhooks)
            state.webhooks[app] = webhooks
            return result
        }
    }

    // MARK: - Endpoints

    func addEndpoint(_ endpoint: WebhookEndpoint) async throws(StorageError) {
        try database.transaction { state throws(StorageError) in
            guard !state.webhooks.values.contains(where: { $0.endpointIndex(endpoint.id) != nil }) else {
                throw StorageError(.queryFailed, "a webhook endpoint with the ID \(endpoint.id) exists")
            }
            var stored = endpoint
            stored.app = app
            stored.createdAt = endpoint.createdAt.storedPrecision
            stored.removedAt = endpoint.removedAt?.storedPrecision
            stored.consecutiveFailures = 0
            stored.pausedUntil = nil
            state.webhooks[app, default: MemoryWebhooks()].endpoints.append(stored)
        }
    }

    func endpoints(includingRemoved: Bool) async throws(StorageError) -> [WebhookEndpoint] {
        try webhooks { webhooks in
            webhooks.endpoints.filter { includingRemoved || $0.removedAt == nil }
                .sorted { $0.createdAt != $1.createdAt ? $0.createdAt < $1.createdAt : $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        }
    }

    func endpoint(id: String) async throws(StorageError) -> WebhookEndpoint? {
        try webhooks { webhooks in webhooks.endpointIndex(id).map { webhooks.endpoints[$0] } }
    }

    func updateEndpoint(_ endpoint: WebhookEndpoint) async throws(StorageError) {
        try webhooks { webhooks in
            guard let index = webhooks.endpointIndex(endpoint.id) else { return }
            webhooks.endpoints[index].url = endpoint.url
            webhooks.endpoints[index].eventTypes = endpoint.eventTypes
            webhooks.endpoints[index].secrets = endpoint.secrets
            webhooks.endpoints[index].description = endpoint.description
            webhooks.endpoints[index].removedAt = endpoint.removedAt?.storedPrecision
        }
    }

    // MARK: - Publishing

    func snapshots(appUserIDs: Set<AppUserID>) async throws(StorageError) -> [AppUserID: WebhookSnapshot] {
        try webhooks { webhooks in webhooks.snapshots.filter { appUserIDs.contains($0.key) } }
    }

    func publish(_ batch: WebhookBatch) async throws(StorageError) -> Bool {
        let app = app
        return database.transaction { state in
            var ledger = state.ledgers[app] ?? MemoryLedger()
            var webhooks = state.webhooks[app] ?? MemoryWebhooks()
            if let cursor = batch.cursor {
                guard (ledger.cursors[cursor.consumer] ?? 0) == cursor.from else { return false }
                ledger.cursors[cursor.consumer] = cursor.to
            }
            for entry in batch.schedule {
                let key = MemoryWebhooks.ScheduleKey(appUserID: entry.appUserID, kind: entry.kind, periodKey: entry.periodKey)
                if webhooks.schedule[key] == nil {
                    webhooks.schedule[key] = ScheduledEvent(
                        appUserID: entry.appUserID, kind: entry.kind, periodKey: entry.periodKey, dueAt: entry.dueAt.storedPrecision)
                }
            }
            for entry in batch.fired {
                let key = MemoryWebhooks.ScheduleKey(appUserID: entry.appUserID, kind: entry.kind, periodKey: entry.periodKey)
                // Fired by another instance first: the step is theirs, and nothing of it is stored.
                guard webhooks.schedule[key] != nil, webhooks.schedule[key]?.firedAt == nil else { return false }
                webhooks.schedule[key]?.firedAt = batch.firedAt.storedPrecision
            }
            for (appUserID, snapshot) in batch.snapshots {
                webhooks.snapshots[appUserID] = WebhookSnapshot(facts: snapshot.facts, at: snapshot.at.storedPrecision)
            }
            for delivery in batch.deliveries {
                guard webhooks.deliveryKeys.insert(MemoryWebhooks.deliveryKey(delivery)).inserted else { continue }
                var stored = delivery
                stored.id = state.nextDeliveryID
                state.nextDeliveryID += 1
                stored.status = .pending
                stored.attempts = 0
                stored.lastStatus = nil
                stored.lastError = nil
                stored.deliveredAt = nil
                stored.occurredAt = delivery.occurredAt.storedPrecision
                stored.nextAttemptAt = delivery.nextAttemptAt.storedPrecision
                stored.createdAt = delivery.createdAt.storedPrecision
                webhooks.deliveries.append(stored)
            }
            state.ledgers[app] = ledger
            state.webhooks[app] = webhooks
            return true
        }
    }

    func dueSchedule(at now: Date, limit: Int) async throws(StorageError) -> [ScheduledEvent] {
        try webhooks { webhooks in
            Array(webhooks.schedule.values.filter { $0.firedAt == nil && $0.dueAt <= now.storedPrecision }
                .sorted(by: MemoryWebhooks.scheduleOrder).prefix(max(1, limit)))
        }
    }

    func dueSchedule(appUserIDs: Set<AppUserID>, by now: Date) async throws(StorageError) -> [ScheduledEvent] {
        try webhooks { webhooks in
            webhooks.schedule.values.filter { $0.firedAt == nil && $0.dueAt <= now.storedPrecision && appUserIDs.contains($0.appUserID) }
                .sorted(by: MemoryWebhooks.scheduleOrder)
        }
    }

    // MARK: - Delivering

    func dueDeliveries(at now: Date, limit: Int) async throws(StorageError) -> [WebhookDelivery] {
        let now = now.storedPrecision
        return try webhooks { webhooks in
            var firstPending = Set<String>()
            var due: [WebhookDelivery] = []
            for delivery in webhooks.deliveries where delivery.status == .pending {
                // Only the first pending delivery of an endpoint and subscriber: their events arrive in order.
                let key = delivery.endpointID + "\u{1F}" + delivery.appUserID.rawValue
                guard firstPending.insert(key).inserted else { continue }
                guard delivery.nextAttemptAt <= now, let index = webhooks.endpointIndex(delivery.endpointID) else { continue }
                let endpoint = webhooks.endpoints[index]
                guard endpoint.removedAt == nil, endpoint.pausedUntil.map({ $0 <= now }) ?? true else { continue }
                due.append(delivery)
                if due.count == max(1, limit) { break }
            }
            return due
        }
    }

    func recordAttempts(_ outcomes: [WebhookAttemptOutcome]) async throws(StorageError) {
        guard !outcomes.isEmpty else { return }
        try webhooks { webhooks in
            for outcome in outcomes {
                let attempt = outcome.attempt
                var recorded = attempt
                recorded.at = attempt.at.storedPrecision
                if !(webhooks.attempts[attempt.deliveryID] ?? []).contains(where: { $0.attempt == attempt.attempt }) {
                    webhooks.attempts[attempt.deliveryID, default: []].append(recorded)
                }
                guard let index = webhooks.deliveryIndex(attempt.deliveryID) else { continue }
                webhooks.deliveries[index].status = attempt.succeeded ? .delivered : (outcome.retryAt == nil ? .failed : .pending)
                webhooks.deliveries[index].attempts = attempt.attempt
                webhooks.deliveries[index].nextAttemptAt = (outcome.retryAt ?? attempt.at).storedPrecision
                webhooks.deliveries[index].lastStatus = attempt.status
                webhooks.deliveries[index].lastError = attempt.error
                webhooks.deliveries[index].deliveredAt = attempt.succeeded ? attempt.at.storedPrecision : nil
                if attempt.succeeded, WebhookDelivery.redactedOnceDelivered.contains(webhooks.deliveries[index].eventType) {
                    webhooks.deliveries[index].payload = WebhookDelivery.redactedPayload
                }
            }
            // Each endpoint's health after its last attempt of the batch: a success ends a run of failures.
            for outcome in outcomes {
                guard let index = webhooks.endpointIndex(outcome.endpointID) else { continue }
                if outcome.attempt.succeeded {
                    webhooks.endpoints[index].consecutiveFailures = 0
                    webhooks.endpoints[index].pausedUntil = nil
                } else {
                    webhooks.endpoints[index].consecutiveFailures += 1
                    webhooks.endpoints[index].pausedUntil = outcome.pauseUntil?.storedPrecision
                }
            }
        }
    }

    func deliveries(endpointID: String?, appUserID: AppUserID?, status: WebhookDelivery.Status?, limit: Int) async throws(StorageError) -> [WebhookDelivery] {
        try webhooks { webhooks in
            Array(webhooks.deliveries.reversed().lazy.filter { delivery in
                (endpointID == nil || delivery.endpointID == endpointID) && (appUserID == nil || delivery.appUserID == appUserID)
                    && (status == nil || delivery.status == status)
            }.prefix(max(1, limit)))
        }
    }

    func delivery(id: Int64) async throws(StorageError) -> WebhookDelivery? {
        try webhooks { webhooks in webhooks.deliveryIndex(id).map { webhooks.deliveries[$0] } }
    }

    func attempts(deliveryID: Int64) async throws(StorageError) -> [WebhookAttempt] {
        try webhooks { webhooks in
            guard webhooks.deliveryIndex(deliveryID) != nil else { return [] }
            return (webhooks.attempts[deliveryID] ?? []).sorted { $0.attempt < $1.attempt }
        }
    }

    func replay(endpointID: String, ids: [Int64]?, at now: Date) async throws(StorageError) -> Int {
        if let ids, ids.isEmpty { return 0 }
        let named = ids.map(Set.init)
        return try webhooks { webhooks in
            var count = 0
            for index in webhooks.deliveries.indices {
                let delivery = webhooks.deliveries[index]
                guard delivery.endpointID == endpointID, delivery.status == .failed, named?.contains(delivery.id) ?? true else { continue }
                webhooks.deliveries[index].status = .pending
                webhooks.deliveries[index].nextAttemptAt = now.storedPrecision
                count += 1
            }
            if let index = webhooks.endpointIndex(endpointID) {
                webhooks.endpoints[index].consecutiveFailures = 0
                webhooks.endpoints[index].pausedUntil = nil
            }
            return count
        }
    }

    func unreadEvents(consumer: LedgerConsumer) async throws(StorageError) -> Int {
        database.read(app) { ledger in ledger.rows(after: ledger.cursors[consumer] ?? 0).count }
    }

    func deliveryCounts() async throws(StorageError) -> [WebhookDelivery.Status: Int] {
        try webhooks { webhooks in
            var counts: [WebhookDelivery.Status: Int] = [:]
            for delivery in webhooks.deliveries { counts[delivery.status, default: 0] += 1 }
            return counts
        }
    }
}
