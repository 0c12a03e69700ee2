import EntitleCore
import EntitleStorage
import EntitleWire
import Foundation

/// The `subscriber_deleted` webhook (docs/deletion.md): written when a deletion is asked, before the
/// customer is erased, since afterwards nothing in the ledger names them. Its delivery is filed under the
/// pseudonym and its payload, the one place the erased ID stays, is redacted once delivered.
extension WebhookService {
    /// Writes a `subscriber_deleted` delivery to every endpoint that wants it.
    func publishDeletion(of erasure: SubscriberErasure) async throws(ServiceError) {
        let endpoints = try await webhookEndpoints().filter { $0.receives(WebhookEventType.subscriberDeleted.rawValue) }
        guard !endpoints.isEmpty else { return }
        let id = "evt_del_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let event = WebhookEvent(
            id: id, type: .subscriberDeleted, app: bundleID.rawValue, occurredAt: erasure.at, appUserID: erasure.subject.rawValue,
            data: WebhookEventData(), subscriber: nil)
        let payload: String
        do {
            payload = try WebhookPayload.encode(event)
        } catch {
            throw ServiceError(.internalError, "the deletion event does not encode", underlying: error)
        }
        let deliveries = endpoints.map { endpoint in
            WebhookDelivery(
                endpointID: endpoint.id, eventID: id, eventType: event.type.rawValue, appUserID: erasure.pseudonym, occurredAt: erasure.at,
                payload: payload, nextAttemptAt: erasure.at, createdAt: erasure.at)
        }
        do {
            _ = try await webhookStore.publish(WebhookBatch(deliveries: deliveries, firedAt: erasure.at))
        } catch {
            throw ServiceError(error)
        }
        metrics.recordWebhookPublished(deliveries)
    }
}
