import Crypto
import EntitleCore
import EntitleStorage
import EntitleWire
import Foundation
import Logging

extension WebhookService {
    /// Adds an endpoint for the app. `url` is `http` or `https` with a host; `eventTypes` are type
    /// names (empty: every type); `secret` (16 to 200 printable characters) is generated when absent.
    public func addWebhookEndpoint(
        url: String, eventTypes: [String], description: String?, secret: String?
    ) async throws(ServiceError) -> (endpoint: WebhookEndpoint, secret: String) {
        try Self.validateWebhookURL(url)
        try Self.validateEventTypes(eventTypes)
        if let description, description.unicodeScalars.count > 200 { throw ServiceError(.invalidRequest, "a description has at most 200 characters") }
        let secret = try secret.map(Self.validateWebhookSecret) ?? Self.generateWebhookSecret()
        let endpoint = WebhookEndpoint(
            id: Self.newWebhookEndpointID(), app: bundleID, url: url,
            eventTypes: Array(Set(eventTypes)).sorted(), secrets: [secret], description: description, createdAt: now())
        do {
            try await webhookStore.addEndpoint(endpoint)
        } catch {
            throw ServiceError(error)
        }
        logger.info("webhook endpoint added", metadata: ["webhook.endpoint": "\(endpoint.id)"])
        return (endpoint, secret)
    }

    public func webhookEndpoint(id: String) async throws(ServiceError) -> WebhookEndpoint {
        let found: WebhookEndpoint?
        do {
            found = try await webhookStore.endpoint(id: id)
        } catch {
            throw ServiceError(error)
        }
        guard let found, found.removedAt == nil else { throw ServiceError(.notFound, "no webhook endpoint \(id.prefix(64)) in \(bundleID)") }
        return found
    }

    /// Removes an endpoint: nothing more is written or sent to it; what it got stays listed.
    public func removeWebhookEndpoint(id: String) async throws(ServiceError) -> WebhookEndpoint {
        var endpoint = try await webhookEndpoint(id: id)
        endpoint.removedAt = now()
        do {
            try await webhookStore.updateEndpoint(endpoint)
        } catch {
            throw ServiceError(error)
        }
        logger.info("webhook endpoint removed", metadata: ["webhook.endpoint": "\(id)"])
        return endpoint
    }

    /// Rotates an endpoint's secret: the new one signs beside the previous one (both `v1`s are sent)
    /// until the next rotation drops the older.
    public func rotateWebhookSecret(id: String, secret: String?) async throws(ServiceError) -> (endpoint: WebhookEndpoint, secret: String) {
        var endpoint = try await webhookEndpoint(id: id)
        let new = try secret.map(Self.validateWebhookSecret) ?? Self.generateWebhookSecret()
        endpoint.secrets = [new] + endpoint.secrets.prefix(1)
        do {
            try await webhookStore.updateEndpoint(endpoint)
        } catch {
            throw ServiceError(error)
        }
        logger.info("webhook secret rotated", metadata: ["webhook.endpoint": "\(id)"])
        return (endpoint, new)
    }

    /// Queues a `test` event for an endpoint, sent like any other.
    public func sendTestWebhook(endpointID: String) async throws(ServiceError) -> WebhookDelivery {
        let endpoint = try await webhookEndpoint(id: endpointID)
        let at = now()
        let id = "evt_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let event = WebhookEvent(id: id, type: .test, app: bundleID.rawValue, occurredAt: at, appUserID: "", data: WebhookEventData(), subscriber: nil)
        let delivery: WebhookDelivery
        do {
            delivery = WebhookDelivery(
                endpointID: endpoint.id, eventID: id, eventType: event.type.rawValue, appUserID: "", occurredAt: at, payload: try WebhookPayload.encode(event),
                nextAttemptAt: at, createdAt: at)
        } catch {
            throw ServiceError(.internalError, "the test event does not encode", underlying: error)
        }
        do {
            _ = try await webhookStore.publish(WebhookBatch(deliveries: [delivery], firedAt: at))
            return try await webhookStore.deliveries(endpointID: endpoint.id, appUserID: "", status: nil, limit: 1).first ?? delivery
        } catch {
            throw ServiceError(error)
        }
    }

    /// Makes failed deliveries of an endpoint pending again: the ones named, or all.
    public func replayWebhooks(endpointID: String, deliveryIDs: [Int64]?) async throws(ServiceError) -> Int {
        _ = try await webhookEndpoint(id: endpointID)
        if let deliveryIDs, deliveryIDs.count > 1_000 { throw ServiceError(.invalidRequest, "replay at most 1000 deliveries at once") }
        do {
            let count = try await webhookStore.replay(endpointID: endpointID, ids: deliveryIDs, at: now())
            logger.info("webhook deliveries replayed", metadata: ["webhook.endpoint": "\(endpointID)", "count": "\(count)"])
            return count
        } catch {
            throw ServiceError(error)
        }
    }

    public func webhookDeliveries(
        endpointID: String?, appUserID: AppUserID?, status: String?, limit: Int
    ) async throws(ServiceError) -> [WebhookDelivery] {
        guard (1...500).contains(limit) else { throw ServiceError(.invalidRequest, "limit is 1 to 500") }
        var parsed: WebhookDelivery.Status?
        if let status {
            guard let known = WebhookDelivery.Status(rawValue: status) else {
                throw ServiceError(.invalidRequest, "status is pending, delivered or failed")
            }
            parsed = known
        }
        do {
            return try await webhookStore.deliveries(endpointID: endpointID, appUserID: appUserID, status: parsed, limit: limit)
        } catch {
            throw ServiceError(error)
        }
    }

    public func webhookDelivery(id: Int64) async throws(ServiceError) -> (WebhookDelivery, [WebhookAttempt]) {
        let delivery: WebhookDelivery?
        do {
            delivery = try await webhookStore.delivery(id: id)
        } catch {
            throw ServiceError(error)
        }
        guard let delivery else { throw ServiceError(.notFound, "no webhook delivery \(id) in \(bundleID)") }
        do {
            return (delivery, try await webhookStore.attempts(deliveryID: id))
        } catch {
            throw ServiceError(error)
        }
    }

    /// What the dashboard's webhooks page shows: the endpoints, the latest deliveries with their
    /// attempts, and the deliveries by status.
    func overview(
        recentDeliveries limit: Int
    ) async throws(ServiceError) -> (
        endpoints: [WebhookEndpoint], deliveries: [(delivery: WebhookDelivery, attempts: [WebhookAttempt])], counts: [WebhookDelivery.Status: Int]
    ) {
        do {
            var deliveries: [(delivery: WebhookDelivery, attempts: [WebhookAttempt])] = []
            for delivery in try await webhookStore.deliveries(endpointID: nil, appUserID: nil, status: nil, limit: limit) {
                deliveries.append((delivery, try await webhookStore.attempts(deliveryID: delivery.id)))
            }
            return (try await webhookStore.endpoints(includingRemoved: false), deliveries, try await webhookStore.deliveryCounts())
        } catch {
            throw ServiceError(error)
        }
    }

    /// The app's endpoints, its deliveries by status and the events not yet published. Read in that
    /// order, events before deliveries: a step of publishing writes its deliveries and moves the cursor in
    /// one transaction, so every event counted as published has its deliveries in the counts read after
    /// it, and nothing pending and nothing unpublished means everything appended before was delivered.
    /// (Read the other way round, a step between the two reads hid its deliveries from both.)
    public func webhookStatus() async throws(ServiceError) -> (endpoints: Int, counts: [WebhookDelivery.Status: Int], unpublished: Int) {
        do {
            let endpoints = try await webhookStore.endpoints(includingRemoved: false).count
            let unpublished = endpoints == 0 ? 0 : try await webhookStore.unreadEvents(consumer: Self.webhookConsumer)
            return (endpoints, try await webhookStore.deliveryCounts(), unpublished)
        } catch {
            throw ServiceError(error)
        }
    }

    public static func validateWebhookURL(_ url: String) throws(ServiceError) {
        guard url.utf8.count <= 2_048, let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = parsed.host, !host.isEmpty, !url.contains(where: \.isWhitespace)
        else { throw ServiceError(.invalidRequest, "a webhook URL is http:// or https:// with a host, at most 2048 bytes") }
    }

    public static func validateEventTypes(_ types: [String]) throws(ServiceError) {
        guard types.count <= WebhookEventType.allCases.count * 2 else { throw ServiceError(.invalidRequest, "too many event types") }
        if let unknown = types.first(where: { WebhookEventType(rawValue: $0) == nil }) {
            throw ServiceError(.invalidRequest, "\(unknown.prefix(64)) is not an event type (docs/webhooks.md lists them)")
        }
    }

    public static func validateWebhookSecret(_ secret: String) throws(ServiceError) -> String {
        guard (16...200).contains(secret.count), secret.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw ServiceError(.invalidRequest, "a webhook secret is 16 to 200 printable ASCII characters without spaces")
        }
        return secret
    }

    /// A new endpoint ID, `we_` and 20 hex digits.
    public static func newWebhookEndpointID() -> String {
        "we_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
    }

    /// A new random signing secret.
    public static func generateWebhookSecret() -> String {
        "whsec_" + Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64URL
    }
}
