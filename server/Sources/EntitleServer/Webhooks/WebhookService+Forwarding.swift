import EntitleCore
import EntitleStorage
import Foundation

/// Notification forwarding (docs/webhooks.md): every App Store notification the ledger holds, sent on to
/// the app's forwarding endpoints (`--forward-url`, the provider an app is leaving) as Apple sent it, by a
/// ledger consumer of its own, so Entitle's answer to Apple never waits for them; retried, failed ones
/// kept for replay, as webhooks are.
extension WebhookService {
    /// The ledger consumer forwarding reads with.
    static let forwardingConsumer: LedgerConsumer = "forwarding"
    /// The job forwarding holds, so one instance writes the deliveries at a time.
    static let forwardingJob: LeasedJob = "forwarding"

    /// Writes a delivery to every forwarding endpoint for each notification past the forwarding cursor,
    /// a step at a time (each step's deliveries and cursor in one transaction). Returns how many.
    public func publishForwards(holder: String) async throws(ServiceError) -> Int {
        let endpoints = try await webhookEndpoints().filter { $0.eventTypes.contains(WebhookEndpoint.forwardedNotification) }
        // The first forwarding endpoint starts the cursor: what came before it is the old provider's already.
        guard let since = endpoints.map(\.createdAt).min() else { return 0 }
        var written = 0
        while try await holdWebhookLease(Self.forwardingJob, holder: holder) != nil {
            let batch: (position: Int64, events: [(sequence: Int64, event: LedgerEvent)])
            let whole: [Int64: LedgerEvent]
            do {
                batch = try await cursors.consumerEvents(Self.forwardingConsumer, limit: Self.webhookBatchSize, since: since)
                whole = try await feed.wholeEvents(sequences: batch.events.filter { $0.event.source == .appStoreNotification }.map(\.sequence))
            } catch {
                throw ServiceError(error)
            }
            guard let last = batch.events.last?.sequence else { return written }
            let at = now()
            var deliveries: [WebhookDelivery] = []
            for (sequence, event) in batch.events {
                guard let body = whole[sequence].flatMap(Self.forwardedBody) else { continue }
                for endpoint in endpoints where endpoint.createdAt <= event.receivedAt {
                    deliveries.append(WebhookDelivery(
                        endpointID: endpoint.id, eventID: "fwd_" + event.id.uuidString.lowercased(), eventType: WebhookEndpoint.forwardedNotification,
                        appUserID: event.appUserID ?? "", occurredAt: event.receivedAt, payload: body, nextAttemptAt: at, createdAt: at))
                }
            }
            let write = WebhookBatch(cursor: (Self.forwardingConsumer, batch.position, last), deliveries: deliveries, firedAt: at)
            do {
                guard try await webhookStore.publish(write) else { return written }
            } catch {
                throw ServiceError(error)
            }
            metrics.recordWebhookPublished(write.deliveries)
            written += deliveries.count
            if batch.events.count < Self.webhookBatchSize { return written }
        }
        return written
    }

    /// The body Apple posted, `{"signedPayload":"…"}`, from the signed payload the ledger kept as received;
    /// `nil` for an event without one (stored before payloads were kept).
    static func forwardedBody(_ event: LedgerEvent) -> String? {
        guard let signed = event.rawSignedPayload, !signed.isEmpty, signed.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
        else { return nil }
        return #"{"signedPayload":""# + signed + #""}"#
    }
}
