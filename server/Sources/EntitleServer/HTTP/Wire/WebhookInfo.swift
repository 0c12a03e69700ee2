import EntitleCore
import EntitleStorage
import EntitleWire

/// The webhooks API's answers, from what the webhook store keeps.
enum WebhookInfo {
    static func info(_ endpoint: WebhookEndpoint) -> WebhookEndpointInfo {
        WebhookEndpointInfo(
            id: endpoint.id, url: endpoint.url, eventTypes: endpoint.eventTypes, description: endpoint.description, createdAt: endpoint.createdAt,
            removedAt: endpoint.removedAt, secretHints: endpoint.secrets.map { "…" + $0.suffix(4) }, consecutiveFailures: endpoint.consecutiveFailures,
            pausedUntil: endpoint.pausedUntil)
    }

    static func info(_ delivery: WebhookDelivery, attempts: [WebhookAttempt]? = nil) -> WebhookDeliveryInfo {
        WebhookDeliveryInfo(
            id: delivery.id, endpointID: delivery.endpointID, eventID: delivery.eventID, eventType: WebhookEventTypeValue(rawValue: delivery.eventType), appUserID: delivery.appUserID.rawValue,
            occurredAt: delivery.occurredAt, status: WebhookDeliveryStatus(rawValue: delivery.status.rawValue), attempts: delivery.attempts,
            nextAttemptAt: delivery.status == .pending ? delivery.nextAttemptAt : nil, lastStatus: delivery.lastStatus, lastError: delivery.lastError,
            deliveredAt: delivery.deliveredAt, createdAt: delivery.createdAt,
            attemptLog: attempts?.map {
                WebhookAttemptInfo(attempt: $0.attempt, at: $0.at, status: $0.status, latencyMilliseconds: $0.latencyMilliseconds, error: $0.error)
            })
    }

    static func status(
        _ status: (endpoints: Int, counts: [WebhookDelivery.Status: Int], unpublished: Int)
    ) -> WebhookStatusResponse {
        WebhookStatusResponse(
            endpoints: status.endpoints, pending: status.counts[.pending] ?? 0, delivered: status.counts[.delivered] ?? 0,
            failed: status.counts[.failed] ?? 0, unpublishedEvents: status.unpublished)
    }
}
