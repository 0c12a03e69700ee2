import EntitleCore
import Foundation

/// An app's webhooks in the ledger's database: endpoints, the deliveries derived from the ledger and
/// their attempts, snapshots, and the schedule. Conformance-tested on every engine.
public protocol WebhookStore: Sendable {
    var app: BundleID { get }

    func addEndpoint(_ endpoint: WebhookEndpoint) async throws(StorageError)
    /// The app's endpoints, oldest first; removed ones only when asked.
    func endpoints(includingRemoved: Bool) async throws(StorageError) -> [WebhookEndpoint]
    func endpoint(id: String) async throws(StorageError) -> WebhookEndpoint?
    /// Replaces the endpoint's URL, types, secrets, description and removal (not its health).
    func updateEndpoint(_ endpoint: WebhookEndpoint) async throws(StorageError)

    /// The snapshots of those of `appUserIDs` that have one.
    func snapshots(appUserIDs: Set<AppUserID>) async throws(StorageError) -> [AppUserID: WebhookSnapshot]
    /// Stores `batch` in one transaction; `false` (nothing stored) when the cursor had moved from
    /// `batch.cursor.from` or an entry it fires was fired already: another instance did the step.
    func publish(_ batch: WebhookBatch) async throws(StorageError) -> Bool
    /// Unfired schedule entries due at `now`, earliest first.
    func dueSchedule(at now: Date, limit: Int) async throws(StorageError) -> [ScheduledEvent]
    /// The unfired schedule entries of `appUserIDs` due by `now`, earliest first.
    func dueSchedule(appUserIDs: Set<AppUserID>, by now: Date) async throws(StorageError) -> [ScheduledEvent]

    /// Pending deliveries whose attempt is due at `now`, each the first pending one of its endpoint and
    /// subscriber (so a subscriber's events arrive in order), of endpoints not resting; in the order
    /// they were written.
    func dueDeliveries(at now: Date, limit: Int) async throws(StorageError) -> [WebhookDelivery]
    /// Records attempts and their consequences, in one transaction and in order: each delivery
    /// delivered, pending again at `retryAt`, or failed for good (`retryAt` nil after a failure); each
    /// endpoint's health follows (`pauseUntil` after a failure).
    func recordAttempts(_ outcomes: [WebhookAttemptOutcome]) async throws(StorageError)

    /// The app's deliveries, newest first, optionally of one endpoint, subscriber or status.
    func deliveries(endpointID: String?, appUserID: AppUserID?, status: WebhookDelivery.Status?, limit: Int) async throws(StorageError) -> [WebhookDelivery]
    func delivery(id: Int64) async throws(StorageError) -> WebhookDelivery?
    func attempts(deliveryID: Int64) async throws(StorageError) -> [WebhookAttempt]
    /// Makes failed deliveries pending again, due at `now`: the ones named, or (`ids` nil) every failed
    /// one of the endpoint. Returns how many.
    func replay(endpointID: String, ids: [Int64]?, at now: Date) async throws(StorageError) -> Int
    /// How many of the app's ledger events the consumer `consumer` has not read yet.
    func unreadEvents(consumer: LedgerConsumer) async throws(StorageError) -> Int
    /// How many deliveries are in each status.
    func deliveryCounts() async throws(StorageError) -> [WebhookDelivery.Status: Int]
}

extension WebhookStore {
    /// Records one attempt (``recordAttempts(_:)``).
    public func recordAttempt(_ attempt: WebhookAttempt, endpointID: String, retryAt: Date?, pauseUntil: Date?) async throws(StorageError) {
        try await recordAttempts([WebhookAttemptOutcome(attempt: attempt, endpointID: endpointID, retryAt: retryAt, pauseUntil: pauseUntil)])
    }
}
