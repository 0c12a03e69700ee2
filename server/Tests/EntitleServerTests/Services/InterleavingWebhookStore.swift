import EntitleCore
import EntitleStorage
import Foundation
import NIOConcurrencyHelpers

/// A webhook store that runs `between` once, right after the first read of a status (the events not yet
/// published or the deliveries' counts, whichever comes first), so that another instance's step of
/// publishing lands between a status's two reads. Everything else is `inner`'s.
final class InterleavingWebhookStore: WebhookStore {
    let inner: any WebhookStore
    private let between: @Sendable () async -> Void
    private let due = NIOLockedValueBox(true)

    init(_ inner: any WebhookStore, between: @escaping @Sendable () async -> Void) {
        self.inner = inner
        self.between = between
    }

    var app: BundleID { inner.app }

    /// `true` the first time only.
    private func takeTurn() -> Bool {
        due.withLockedValue { due in
            defer { due = false }
            return due
        }
    }

    func unreadEvents(consumer: LedgerConsumer) async throws(StorageError) -> Int {
        let unread = try await inner.unreadEvents(consumer: consumer)
        if takeTurn() { await between() }
        return unread
    }

    func deliveryCounts() async throws(StorageError) -> [WebhookDelivery.Status: Int] {
        let counts = try await inner.deliveryCounts()
        if takeTurn() { await between() }
        return counts
    }

    func addEndpoint(_ endpoint: WebhookEndpoint) async throws(StorageError) { try await inner.addEndpoint(endpoint) }
    func endpoints(includingRemoved: Bool) async throws(StorageError) -> [WebhookEndpoint] { try await inner.endpoints(includingRemoved: includingRemoved) }
    func endpoint(id: String) async throws(StorageError) -> WebhookEndpoint? { try await inner.endpoint(id: id) }
    func updateEndpoint(_ endpoint: WebhookEndpoint) async throws(StorageError) { try await inner.updateEndpoint(endpoint) }
    func snapshots(appUserIDs: Set<AppUserID>) async throws(StorageError) -> [AppUserID: WebhookSnapshot] { try await inner.snapshots(appUserIDs: appUserIDs) }
    func publish(_ batch: WebhookBatch) async throws(StorageError) -> Bool { try await inner.publish(batch) }
    func dueSchedule(at now: Date, limit: Int) async throws(StorageError) -> [ScheduledEvent] { try await inner.dueSchedule(at: now, limit: limit) }
    func dueSchedule(appUserIDs: Set<AppUserID>, by now: Date) async throws(StorageError) -> [ScheduledEvent] {
        try await inner.dueSchedule(appUserIDs: appUserIDs, by: now)
    }
    func dueDeliveries(at now: Date, limit: Int) async throws(StorageError) -> [WebhookDelivery] { try await inner.dueDeliveries(at: now, limit: limit) }
    func recordAttempts(_ outcomes: [WebhookAttemptOutcome]) async throws(StorageError) { try await inner.recordAttempts(outcomes) }
    func deliveries(endpointID: String?, appUserID: AppUserID?, status: WebhookDelivery.Status?, limit: Int) async throws(StorageError) -> [WebhookDelivery] {
        try await inner.deliveries(endpointID: endpointID, appUserID: appUserID, status: status, limit: limit)
    }
    func delivery(id: Int64) async throws(StorageError) -> WebhookDelivery? { try await inner.delivery(id: id) }
    func attempts(deliveryID: Int64) async throws(StorageError) -> [WebhookAttempt] { try await inner.attempts(deliveryID: deliveryID) }
    func replay(endpointID: String, ids: [Int64]?, at now: Date) async throws(StorageError) -> Int { try await inner.replay(endpointID: endpointID, ids: ids, at: now) }
}
