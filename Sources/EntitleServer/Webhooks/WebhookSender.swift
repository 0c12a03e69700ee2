import AsyncHTTPClient
import EntitleStorage
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// Sends an app's due webhook deliveries: signed, at most ``WebhookDeliveryPolicy/concurrencyPerEndpoint``
/// at a time per endpoint, a subscriber's in the order they were written, every attempt recorded with its
/// status and latency before the next of the same subscriber is tried.
public struct WebhookSender: Sendable {
    let client: HTTPClient
    let policy: WebhookDeliveryPolicy
    /// The clock signatures are timestamped with, for receivers to refuse stale requests; the
    /// service's clock when `nil` (a server whose clock is simulated signs with the real one).
    let signingClock: (@Sendable () -> Date)?

    /// The job whose lease one instance holds while it sends an app's webhooks.
    static let job = "webhook-delivery"
    /// How long a round may take with its lease: a round sends at most two deliveries per slot of an
    /// endpoint, each bounded by the timeout (10 s by default), so it ends within it; after a crash
    /// another instance takes over within it.
    static let lease: TimeInterval = 30

    public init(client: HTTPClient, policy: WebhookDeliveryPolicy = WebhookDeliveryPolicy(), signingClock: (@Sendable () -> Date)? = nil) {
        self.client = client
        self.policy = policy
        self.signingClock = signingClock
    }

    /// Sends what is due for `service`'s app until nothing more is (or only resting endpoints' are);
    /// instances sharing a database take turns through a lease. Returns how many attempts succeeded
    /// and failed.
    public func deliver(_ service: SubscriptionService, holder: String) async throws(ServiceError) -> (delivered: Int, failed: Int) {
        guard let lease = try await service.holdWebhookLease(Self.job, holder: holder, for: Self.lease) else { return (0, 0) }
        var totals = (delivered: 0, failed: 0)
        let outcome: Result<Void, ServiceError>
        do {
            // Each round renews the lease; a round is bounded by the attempts' timeout.
            while try await service.holdWebhookLease(Self.job, holder: holder, for: Self.lease) != nil {
                let round = try await deliverRound(service)
                totals.delivered += round.delivered
                totals.failed += round.failed
                if round.delivered == 0 { break }
            }
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        try? await service.store.completeJob(lease, mark: nil)
        try outcome.get()
        return totals
    }

    /// One round: the deliveries due now, each endpoint's sent in chunks; an endpoint that fails stops
    /// for the round (it rests).
    private func deliverRound(_ service: SubscriptionService) async throws(ServiceError) -> (delivered: Int, failed: Int) {
        let store = service.webhooks
        let due: [WebhookDelivery]
        let endpoints: [String: WebhookEndpoint]
        do {
            due = try await store.dueDeliveries(at: service.now(), limit: 2 * policy.concurrencyPerEndpoint)
            endpoints = Dictionary(try await store.endpoints(includingRemoved: false).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        } catch {
            throw ServiceError(error)
        }
        guard !due.isEmpty else { return (0, 0) }
        let byEndpoint = Dictionary(grouping: due, by: \.endpointID)
        return await withTaskGroup(of: (Int, Int).self) { group in
            for (id, deliveries) in byEndpoint {
                guard let endpoint = endpoints[id] else { continue }
                group.addTask { await send(deliveries, to: endpoint, service: service) }
            }
            var totals = (0, 0)
            for await counts in group {
                totals.0 += counts.0
                totals.1 += counts.1
            }
            return totals
        }
    }

    /// Sends one endpoint's due deliveries, at most ``WebhookDeliveryPolicy/concurrencyPerEndpoint`` in
    /// flight; after a failure no new one starts (the endpoint rests). Each is a different subscriber's.
    private func send(_ deliveries: [WebhookDelivery], to endpoint: WebhookEndpoint, service: SubscriptionService) async -> (Int, Int) {
        await withTaskGroup(of: Bool.self) { group in
            var next = deliveries.makeIterator()
            var counts = (0, 0)
            var failing = false
            for _ in 0..<policy.concurrencyPerEndpoint {
                guard let delivery = next.next() else { break }
                group.addTask { await attempt(delivery, to: endpoint, service: service) }
            }
            for await succeeded in group {
                if succeeded { counts.0 += 1 } else { counts.1 += 1 }
                failing = failing || !succeeded
                if !failing, let delivery = next.next() {
                    group.addTask { await attempt(delivery, to: endpoint, service: service) }
                }
            }
            return counts
        }
    }

    /// One attempt at one delivery, recorded; whether it succeeded.
    private func attempt(_ delivery: WebhookDelivery, to endpoint: WebhookEndpoint, service: SubscriptionService) async -> Bool {
        let number = delivery.attempts + 1
        let at = service.now()
        var request = HTTPClientRequest(url: endpoint.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Entitle-Webhooks/1")
        request.headers.add(name: WebhookPayload.signatureHeader, value: WebhookPayload.signature(
            body: delivery.payload, timestamp: Int64((signingClock?() ?? at).timeIntervalSince1970.rounded(.down)), secrets: endpoint.secrets))
        request.headers.add(name: "Entitle-Event-Id", value: delivery.eventID)
        request.headers.add(name: "Entitle-Event-Type", value: delivery.eventType)
        request.headers.add(name: "Entitle-Delivery-Attempt", value: String(number))
        request.body = .bytes(ByteBuffer(string: delivery.payload))
        let started = ContinuousClock.now
        var status: Int?
        var failure: String?
        do {
            let response = try await client.execute(request, timeout: .nanoseconds(Int64(policy.timeout.components.seconds) * 1_000_000_000
                + policy.timeout.components.attoseconds / 1_000_000_000))
            status = Int(response.status.code)
            _ = try? await response.body.collect(upTo: 64 * 1024)
            if !(200..<300).contains(Int(response.status.code)) { failure = "HTTP \(response.status.code)" }
        } catch {
            failure = Self.describe(error)
        }
        let elapsed = ContinuousClock.now - started
        let milliseconds = Int(elapsed.components.seconds * 1_000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        let record = WebhookAttempt(deliveryID: delivery.id, attempt: number, at: at, status: status, latencyMilliseconds: milliseconds, error: failure)
        let retryAt = record.succeeded ? nil : policy.retry(after: number, at: at)
        let rest = record.succeeded ? nil : at.addingTimeInterval(policy.rest(afterFailures: endpoint.consecutiveFailures + 1))
        do {
            try await service.webhooks.recordAttempt(record, endpointID: endpoint.id, retryAt: retryAt, pauseUntil: rest)
        } catch {
            service.logger.error("a webhook attempt could not be recorded", metadata: ["error.code": "\(error.code)", "webhook.event": "\(delivery.eventID)"])
            return false
        }
        let outcome = record.succeeded ? "delivered" : (retryAt == nil ? "failed" : "retry")
        service.metrics.recordWebhookAttempt(outcome: outcome, duration: elapsed)
        let metadata: Logger.Metadata = [
            "webhook.endpoint": "\(endpoint.id)", "webhook.event": "\(delivery.eventID)", "webhook.type": "\(delivery.eventType)",
            "webhook.attempt": "\(number)", "http.status": "\(status.map(String.init) ?? "-")", "webhook.latency_ms": "\(milliseconds)",
        ]
        if record.succeeded {
            service.logger.debug("webhook delivered", metadata: metadata)
        } else if retryAt == nil {
            service.logger.warning("webhook failed for good; kept for replay", metadata: metadata.merging(["error": "\(failure ?? "")"]) { $1 })
        } else {
            service.logger.info("webhook attempt failed; will retry", metadata: metadata.merging(["error": "\(failure ?? "")"]) { $1 })
        }
        return record.succeeded
    }

    /// A transport failure in a few words (never the request: it carries the signature).
    static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout: return "timeout"
            default: return "transport: \(error)"
            }
        }
        return "transport: \(type(of: error))"
    }
}
