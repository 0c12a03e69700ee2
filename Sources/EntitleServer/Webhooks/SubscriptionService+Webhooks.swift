import Crypto
import EntitleCore
import EntitleStorage
import EntitleWire
import Foundation
import Logging

extension SubscriptionService {
    /// The ledger consumer webhooks are derived by.
    static let webhookConsumer = "webhooks"
    /// Events read per step.
    static let webhookBatchSize = 100

    /// The app's webhooks: endpoints, deliveries, the schedule.
    public var webhooks: any WebhookStore { store.webhookStore() }

    /// Derives what happened since the last pass into deliveries for the app's endpoints: every ledger
    /// event past the webhooks' durable cursor (and the changes time brought before it), then the
    /// schedule's due entries (answers that change by time alone, renewal reminders). Each step writes
    /// its deliveries, the subscribers' snapshots, the schedule and the cursor in one transaction, so
    /// a crash repeats a step and never loses or half-writes one. Instances sharing a database take
    /// turns through a lease. Returns how many deliveries were written.
    public func publishWebhooks(holder: String) async throws(ServiceError) -> Int {
        let start = now()
        let lease: JobLease?
        do {
            lease = try await store.acquireJob(Self.webhookConsumer, holder: holder, now: start, until: start + 300)
        } catch {
            throw ServiceError(error)
        }
        guard let lease else { return 0 }
        let outcome: Result<Int, ServiceError>
        do {
            var written = try await publishLedgerEvents()
            written += try await publishSchedule()
            outcome = .success(written)
        } catch {
            outcome = .failure(error)
        }
        try? await store.completeJob(lease, mark: nil)
        return try outcome.get()
    }

    /// Steps through the ledger past the cursor until it is caught up.
    private func publishLedgerEvents() async throws(ServiceError) -> Int {
        var written = 0
        while true {
            let batch: (position: Int64, events: [(sequence: Int64, event: LedgerEvent)])
            do {
                // A ledger that had events before webhooks existed starts now: its subscribers' earlier
                // history is the "before" of their next change.
                batch = try await store.consumerEvents(Self.webhookConsumer, limit: Self.webhookBatchSize, since: now())
            } catch {
                throw ServiceError(error)
            }
            guard let last = batch.events.last?.sequence else { return written }
            let endpoints = try await webhookEndpoints()
            var step = WebhookStep(service: self, endpoints: endpoints)
            // With no endpoint nothing is derived: the cursor moves on, and a subscriber's next change
            // after an endpoint is added is told against the history before it.
            if !endpoints.isEmpty {
                for (_, event) in batch.events {
                    try await step.add(event)
                }
            }
            var write = step.batch(at: now())
            write.cursor = (Self.webhookConsumer, batch.position, last)
            let stored: Bool
            do {
                stored = try await webhooks.publish(write)
            } catch {
                throw ServiceError(error)
            }
            guard stored else { return written }
            written += write.deliveries.count
            metrics.recordWebhookPublished(write.deliveries)
            if batch.events.count < Self.webhookBatchSize { return written }
        }
    }

    /// Fires the schedule's due entries, in steps.
    private func publishSchedule() async throws(ServiceError) -> Int {
        var written = 0
        while true {
            let at = now()
            let due: [ScheduledEvent]
            do {
                due = try await webhooks.dueSchedule(at: at, limit: Self.webhookBatchSize)
            } catch {
                throw ServiceError(error)
            }
            guard !due.isEmpty else { return written }
            let endpoints = try await webhookEndpoints()
            guard !endpoints.isEmpty else { return written }
            var step = WebhookStep(service: self, endpoints: endpoints)
            for entry in due { try await step.fire(entry) }
            let write = step.batch(at: at)
            let stored: Bool
            do {
                stored = try await webhooks.publish(write)
            } catch {
                throw ServiceError(error)
            }
            guard stored else { return written }
            written += write.deliveries.count
            metrics.recordWebhookPublished(write.deliveries)
            if due.count < Self.webhookBatchSize { return written }
        }
    }

    func webhookEndpoints() async throws(ServiceError) -> [WebhookEndpoint] {
        do {
            return try await webhooks.endpoints(includingRemoved: false)
        } catch {
            throw ServiceError(error)
        }
    }

    /// A webhook event's ID: the same for the same change whichever path derives it (an event, the
    /// schedule) and however often.
    static func webhookEventID(app: String, appUserID: String, cause: String, change: SubscriberChange) -> String {
        let digest = SHA256.hash(data: Data([app, appUserID, cause, change.subject].joined(separator: "\u{1F}").utf8))
        return "evt_" + digest.prefix(16).map { String(format: "%02x", $0) }.joined()
    }
}
