import AsyncHTTPClient
import EntitleCore
import EntitleStorage
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Tracing

/// Sends an app's due webhook deliveries: signed, at most ``WebhookDeliveryPolicy/concurrencyPerEndpoint``
/// at a time per endpoint, a subscriber's in the order they were written, every attempt recorded with its
/// status and latency before the next of the same subscriber is tried.
public struct WebhookSender: Sendable {
    let client: HTTPClient
    let policy: WebhookDeliveryPolicy
    /// The clock signatures are timestamped with, for receivers to refuse stale requests; the
    /// service's clock when `nil` (a server whose clock is simulated signs with the real one).
    let signingClock: (@Sendable () -> Date)?

    /// The job whose lease one instance holds while it sends an app's webhookStore.
    static let job: LeasedJob = "webhook-delivery"
    public init(client: HTTPClient, policy: WebhookDeliveryPolicy = WebhookDeliveryPolicy(), signingClock: (@Sendable () -> Date)? = nil) {
        self.client = client
        self.policy = policy
        self.signingClock = signingClock
    }

    /// Sends what is due for `target`'s app until nothing more is (or only resting endpoints' are);
    /// instances sharing a database take turns through a lease. Returns how many attempts succeeded
    /// and failed. A cancelled task (graceful shutdown) starts no new attempt or round; an attempt it
    /// cuts short counts for neither the delivery nor its endpoint, so the delivery stays due and
    /// is sent, with the same event ID, by the next pass.
    public func deliver(_ target: Target, holder: String) async throws(ServiceError) -> (delivered: Int, failed: Int) {
        // Nothing due: no lease taken, nothing written.
        do {
            guard try await !target.webhookStore.dueDeliveries(at: target.now(), limit: 1).isEmpty else { return (0, 0) }
        } catch {
            throw ServiceError(error)
        }
        var totals = (delivered: 0, failed: 0)
        // Each round holds the lease (the server's `--webhook-lease`), renewed while the round runs;
        // after a crash another instance takes over once it lapses. Once nothing more is sent, the
        // lease is released: an instance that then crashes holds nothing, and the next pass, on any
        // instance, takes it again.
        var holding = false
        while !Task.isCancelled, try await target.holdLease(Self.job, holder) {
            holding = true
            let round = try await roundHoldingLease(target, holder: holder)
            totals.delivered += round.delivered
            totals.failed += round.failed
            if round.delivered == 0 { break }
        }
        if holding, !Task.isCancelled { await target.releaseLease(Self.job, holder) }
        return totals
    }

    /// Runs one round while a sibling task renews the lease every quarter of it (a renewal writes once
    /// half has gone). Once the lease is lost, or cannot be renewed, the round is cancelled: attempts in
    /// flight have no outcome and stay due, so two instances never send an app's deliveries at once.
    private func roundHoldingLease(_ target: Target, holder: String) async throws(ServiceError) -> (delivered: Int, failed: Int) {
        let result = await withTaskGroup(of: Result<(delivered: Int, failed: Int), ServiceError>?.self) { group in
            group.addTask {
                do throws(ServiceError) {
                    return .success(try await deliverRound(target))
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                while true {
                    do {
                        try await Task.sleep(for: .seconds(target.lease / 4))
                    } catch {
                        return nil
                    }
                    do throws(ServiceError) {
                        guard try await target.holdLease(Self.job, holder) else {
                            target.logger.warning("webhook delivery lease taken by another instance; round cut short")
                            return nil
                        }
                    } catch {
                        target.logger.warning("webhook delivery lease could not be renewed; round cut short", metadata: ["error.code": "\(error.code)"])
                        return nil
                    }
                }
            }
            // The first to end ends the other: the round its renewals, a lost lease the round.
            var round: Result<(delivered: Int, failed: Int), ServiceError> = .success((0, 0))
            for await finished in group {
                group.cancelAll()
                if let finished { round = finished }
            }
            return round
        }
        return try result.get()
    }

    /// One round: the deliveries due now (at most four per slot of an endpoint), each endpoint's sent
    /// with a sliding window; an endpoint that fails starts no more in the round (it rests). The round's
    /// attempts are recorded together, before the next round reads what is due: an attempt made but not
    /// recorded (a crash) is made again, with the same event ID. They are recorded even when the
    /// round's task is cancelled, so what reached an endpoint before shutdown is not sent again.
    private func deliverRound(_ target: Target) async throws(ServiceError) -> (delivered: Int, failed: Int) {
        let store = target.webhookStore
        let due: [WebhookDelivery]
        let endpoints: [String: WebhookEndpoint]
        do {
            due = try await store.dueDeliveries(at: target.now(), limit: 4 * policy.concurrencyPerEndpoint)
            endpoints = Dictionary(try await store.endpoints(includingRemoved: false).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        } catch {
            throw ServiceError(error)
        }
        guard !due.isEmpty else { return (0, 0) }
        let byEndpoint = Dictionary(grouping: due, by: \.endpointID)
        let outcomes = await withTaskGroup(of: [WebhookAttemptOutcome].self) { group in
            for (id, deliveries) in byEndpoint {
                guard let endpoint = endpoints[id] else { continue }
                group.addTask { await send(deliveries, to: endpoint, target: target) }
            }
            var all: [WebhookAttemptOutcome] = []
            for await outcomes in group { all += outcomes }
            return all
        }
        // A task of its own: not cancelled with the round.
        let unrecorded = await Task { () async -> StorageError? in
            do throws(StorageError) {
                try await store.recordAttempts(outcomes)
                return nil
            } catch {
                return error
            }
        }.value
        if let unrecorded {
            target.logger.error("webhook attempts could not be recorded; they will be made again", metadata: ["error.code": "\(unrecorded.code)"])
            throw ServiceError(unrecorded)
        }
        let byID = Dictionary(due.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for outcome in outcomes {
            if let delivery = byID[outcome.attempt.deliveryID] { log(outcome, of: delivery, target: target) }
        }
        let delivered = outcomes.filter(\.attempt.succeeded).count
        return (delivered, outcomes.count - delivered)
    }

    /// Sends one endpoint's due deliveries, at most ``WebhookDeliveryPolicy/concurrencyPerEndpoint`` in
    /// flight; after a failure no new one starts (the endpoint rests), nor once the task is cancelled.
    /// Each is a different subscriber's. Attempts cut short by cancellation have no outcome.
    private func send(_ deliveries: [WebhookDelivery], to endpoint: WebhookEndpoint, target: Target) async -> [WebhookAttemptOutcome] {
        await withTaskGroup(of: WebhookAttemptOutcome?.self) { group in
            var next = deliveries.makeIterator()
            var outcomes: [WebhookAttemptOutcome] = []
            var failures = 0
            for _ in 0..<policy.concurrencyPerEndpoint {
                guard let delivery = next.next() else { break }
                group.addTask { await attempt(delivery, to: endpoint, target: target) }
            }
            for await outcome in group {
                guard let outcome else { continue }
                outcomes.append(outcome)
                if !outcome.attempt.succeeded { failures += 1 }
                if failures == 0, !Task.isCancelled, let delivery = next.next() {
                    group.addTask { await attempt(delivery, to: endpoint, target: target) }
                }
            }
            return outcomes
        }
    }

    /// One attempt at one delivery, and what follows from it; `nil` when the task was cancelled before
    /// the endpoint answered (the endpoint failed nothing).
    private func attempt(
        _ delivery: WebhookDelivery, to endpoint: WebhookEndpoint, target: Target
    ) async -> WebhookAttemptOutcome? {
        let number = delivery.attempts + 1
        let at = target.now()
        var request = HTTPClientRequest(url: endpoint.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Entitle-Webhooks/1")
        // A forwarding endpoint has no secret: Apple's notification carries Apple's signature.
        if !endpoint.secrets.isEmpty {
            request.headers.add(name: WebhookPayload.signatureHeader, value: WebhookPayload.signature(
                body: delivery.payload, timestamp: Int64(saturating: (signingClock?() ?? at).timeIntervalSince1970, rounding: .down), secrets: endpoint.secrets))
        }
        // Its span continues the trace of the request that caused the change, and the endpoint may too.
        let span = TraceParent.isTracing
            ? startSpan("webhook delivery", context: TraceParent.context(delivery.traceParent), ofKind: .client) : nil
        defer { span?.end() }
        span?.attributes["entitle.webhook.event_type"] = delivery.eventType
        span?.attributes["entitle.webhook.attempt"] = number
        request.headers.add(name: "Entitle-Event-Id", value: delivery.eventID)
        request.headers.add(name: "Entitle-Event-Type", value: delivery.eventType)
        request.headers.add(name: "Entitle-Delivery-Attempt", value: String(number))
        request.body = .bytes(ByteBuffer(string: delivery.payload))
        let started = ContinuousClock.now
        var status: Int?
        var failure: String?
        do {
            let timeout = TimeAmount.nanoseconds(
                Int64(policy.timeout.components.seconds) * 1_000_000_000 + policy.timeout.components.attoseconds / 1_000_000_000)
            // Under the delivery's span, the HTTP client's span and its `traceparent` header continue the trace.
            let response = try await InstrumentationContext.$current.withValue(span?.context ?? InstrumentationContext.current) {
                try await client.execute(request, timeout: timeout)
            }
            status = Int(response.status.code)
            _ = try? await response.body.collect(upTo: 64 * 1024)
            if !(200..<300).contains(Int(response.status.code)) { failure = "HTTP \(response.status.code)" }
        } catch {
            if Task.isCancelled { return nil }
            failure = Self.describe(error)
        }
        let elapsed = ContinuousClock.now - started
        let milliseconds = Int(elapsed.components.seconds * 1_000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        let record = WebhookAttempt(deliveryID: delivery.id, attempt: number, at: at, status: status, latencyMilliseconds: milliseconds, error: failure)
        span?.attributes["http.response.status_code"] = status
        if let failure { span?.setStatus(SpanStatus(code: .error, message: failure)) }
        let retryAt = record.succeeded ? nil : policy.retry(after: number, at: at)
        target.metrics.recordWebhookAttempt(outcome: record.succeeded ? "delivered" : (retryAt == nil ? "failed" : "retry"), duration: elapsed)
        return WebhookAttemptOutcome(
            attempt: record, endpointID: endpoint.id, retryAt: retryAt,
            pauseUntil: record.succeeded ? nil : at.addingTimeInterval(policy.rest(afterFailures: endpoint.consecutiveFailures + 1)))
    }

    private func log(_ outcome: WebhookAttemptOutcome, of delivery: WebhookDelivery, target: Target) {
        let record = outcome.attempt
        // Built only when the level is logged.
        func metadata() -> Logger.Metadata {
            var metadata: Logger.Metadata = [
                "webhook.endpoint": "\(outcome.endpointID)", "webhook.event": "\(delivery.eventID)", "webhook.type": "\(delivery.eventType)",
                "webhook.attempt": "\(record.attempt)", "http.status": "\(record.status.map(String.init) ?? "-")",
                "webhook.latency_ms": "\(record.latencyMilliseconds)",
            ]
            if let error = record.error { metadata["error"] = "\(error)" }
            return metadata
        }
        if record.succeeded {
            target.logger.debug("webhook delivered", metadata: metadata())
        } else if outcome.retryAt == nil {
            target.logger.warning("webhook failed for good; kept for replay", metadata: metadata())
        } else {
            target.logger.info("webhook attempt failed; will retry", metadata: metadata())
        }
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
