import EntitleAnalytics
import EntitleCore
import Foundation
import EntitleStorage
import Prometheus
import Synchronization

/// The server's metrics, exposed at `/metrics` in Prometheus' text format. Names follow
/// OpenTelemetry's HTTP conventions; labels are low-cardinality only (route templates, never paths
/// or user ids).
public final class ServerMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry

    static let durationBuckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
    ]

    /// The metrics recorded on every request and every database session, by their labels, once the
    /// registry has made them (``cached(_:_:make:)``): the registry's lookup (the name formatted and
    /// checked, the labels sorted, under its lock) cost a subscriber read ~1% of its CPU time for each.
    /// Route templates, methods, statuses and session kinds are few, so these stay small.
    private let requestHistograms = Mutex<[RequestLabels: Histogram<Duration>]>([:])
    private let sessionGauges = Mutex<[StorageObserver.SessionKind: Gauge]>([:])
    private let sessionWaitHistograms = Mutex<[StorageObserver.SessionKind: Histogram<Duration>]>([:])

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
    }

    /// `http_server_request_duration_seconds{http_request_method, http_route, http_response_status_code}`
    func recordRequest(method: String, route: String, status: Int, duration: Duration) {
        Self.cached(requestHistograms, RequestLabels(method: method, route: route, status: status)) {
            registry.makeDurationHistogram(
                descriptor: MetricNameDescriptor(
                    metricName: "http_server_request_duration", unitName: "seconds", helpText: "Duration of HTTP server requests."),
                labels: [("http_request_method", method), ("http_route", route), ("http_response_status_code", String(status))],
                buckets: Self.durationBuckets
            )
        }.record(duration)
    }

    /// The metric kept in `cache` under `key`, made by `make` the first time.
    private static func cached<Key: Hashable & Sendable, Metric: Sendable>(_ cache: borrowing Mutex<[Key: Metric]>, _ key: Key, make: () -> Metric) -> Metric {
        if let metric = cache.withLock({ $0[key] }) { return metric }
        let metric = make()
        cache.withLock { $0[key] = metric }
        return metric
    }

    /// `entitle_notifications_total{outcome}`: appended, duplicate, or rejected with the error code.
    func recordNotification(outcome: String) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_notifications", unitName: "total", helpText: "App Store Server Notifications received, by outcome."),
            labels: [("outcome", outcome)]
        ).increment()
    }

    /// `entitle_retention_requests_total{app,outcome}`: Apple's real-time Get Retention Message requests, by
    /// what the answer offered (`message`, `alternate_product`, `promotional_offer`, `none`) or the
    /// verification error that refused the request.
    func recordRetentionRequest(app: BundleID, outcome: String) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_retention_requests", unitName: "total", helpText: "Apple's real-time retention message requests, by outcome."),
            labels: [("app", app.rawValue), ("outcome", outcome)]
        ).increment()
    }

    /// `entitle_app_store_notifications_total{type}`: new notifications stored, by Apple's type (a small,
    /// documented set): what refund and renewal rates are computed from.
    func recordNotificationType(_ type: String) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_app_store_notifications", unitName: "total", helpText: "New App Store Server Notifications stored, by type."),
            labels: [("type", type)]
        ).increment()
    }

    /// `entitle_reconciliation_passes_total{app,outcome}` (completed, skipped, failed), the events each
    /// completed pass added (`entitle_reconciliation_events_added_total{app}`: notifications the webhook
    /// never received, and Apple's answers about unsettled purchases) and when one last completed
    /// (`entitle_reconciliation_last_success_timestamp_seconds{app}`).
    func recordReconciliation(app: BundleID, outcome: String, eventsAdded: Int = 0, at: Date? = nil) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_reconciliation_passes", unitName: "total", helpText: "Reconciliation passes with the App Store Server API, by outcome."),
            labels: [("app", app.rawValue), ("outcome", outcome)]
        ).increment()
        guard let at else { return }
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_reconciliation_events_added", unitName: "total",
                helpText: "Events reconciliation added: notifications the webhook never received, answers about unsettled purchases."),
            labels: [("app", app.rawValue)]
        ).increment(by: Int64(eventsAdded))
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_reconciliation_last_success_timestamp", unitName: "seconds",
                helpText: "When a reconciliation pass last completed (Unix time)."),
            labels: [("app", app.rawValue)]
        ).set(at.timeIntervalSince1970)
    }

    /// `entitle_webhook_events_total{type}`: webhook deliveries written, by event type.
    func recordWebhookPublished(_ deliveries: [WebhookDelivery]) {
        for (type, count) in Dictionary(grouping: deliveries, by: \.eventType).mapValues(\.count) {
            registry.makeCounter(
                descriptor: MetricNameDescriptor(
                    metricName: "entitle_webhook_events", unitName: "total", helpText: "Webhook deliveries written, by event type."),
                labels: [("type", type)]
            ).increment(by: Int64(count))
        }
    }

    /// `entitle_webhook_attempts_total{outcome}` (delivered, retry, failed) and their latency
    /// (`entitle_webhook_attempt_duration_seconds`).
    func recordWebhookAttempt(outcome: String, duration: Duration) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_webhook_attempts", unitName: "total", helpText: "Webhook delivery attempts, by outcome."),
            labels: [("outcome", outcome)]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_webhook_attempt_duration", unitName: "seconds", helpText: "Duration of webhook delivery attempts."),
            labels: [], buckets: Self.durationBuckets
        ).record(duration)
    }

    /// `entitle_webhook_deliveries{status}`: the deliveries in each status, as last counted.
    func recordWebhookBacklog(app: BundleID, _ counts: [WebhookDelivery.Status: Int]) {
        for status in WebhookDelivery.Status.allCases {
            registry.makeGauge(
                descriptor: MetricNameDescriptor(metricName: "entitle_webhook", unitName: "deliveries", helpText: "Webhook deliveries, by status."),
                labels: [("app", app.rawValue), ("status", status.rawValue)]
            ).set(Double(counts[status] ?? 0))
        }
    }

    /// `entitle_webhook_publisher{app}`: 1 while this instance holds the app's webhooks lease (it
    /// publishes), 0 once another instance has it.
    func recordWebhookPublisher(app: BundleID, holding: Bool) {
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_webhook", unitName: "publisher", helpText: "1 while this instance holds the app's webhooks lease."),
            labels: [("app", app.rawValue)]
        ).set(holding ? 1.0 : 0.0)
    }

    /// `entitle_verifications_refused_total{code}`: signed data refused, by verification code; and
    /// `entitle_verification_duration_seconds{outcome}` (`accepted` or `refused`): every verification's
    /// duration, whose counts give the share refused (docs/prometheus).
    func recordVerification(refusedCode code: String?, duration: Duration) {
        if let code {
            registry.makeCounter(
                descriptor: MetricNameDescriptor(
                    metricName: "entitle_verifications_refused", unitName: "total", helpText: "Signed data refused by verification, by code."),
                labels: [("code", code)]
            ).increment()
        }
        registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_verification_duration", unitName: "seconds", helpText: "Duration of verifications of Apple's signed data, by outcome."),
            labels: [("outcome", code == nil ? "accepted" : "refused")],
            buckets: Self.durationBuckets
        ).record(duration)
    }

    /// `entitle_events_set_aside_total{consumer}`: ledger events a background consumer could not
    /// process and left out (shown at `GET /v1/set-aside-events`).
    func recordSetAside(consumer: String, count: Int) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_events_set_aside", unitName: "total",
                helpText: "Ledger events a background consumer could not process and set aside, by consumer."),
            labels: [("consumer", consumer)]
        ).increment(by: Int64(count))
    }

    /// `entitle_ledger_appends_total{source, outcome}` and `entitle_ledger_append_duration_seconds{source}`:
    /// appended, duplicate, refused (a quota) or failed (storage).
    func recordAppend(source: String, outcome: String, duration: Duration) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(metricName: "entitle_ledger_appends", unitName: "total", helpText: "Ledger appends, by source and outcome."),
            labels: [("source", source), ("outcome", outcome)]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_ledger_append_duration", unitName: "seconds", helpText: "Duration of ledger appends, until durable."),
            labels: [("source", source)],
            buckets: Self.durationBuckets
        ).record(duration)
    }

    /// `entitle_storage_group_commit_transactions`: transactions committed together under one fsync (SQLite).
    func recordGroupCommit(transactions: Int) {
        registry.makeValueHistogram(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_storage_group_commit", unitName: "transactions",
                helpText: "Transactions committed together by one SQLite group commit."),
            buckets: [1, 2, 4, 8, 16, 32, 64, 128]
        ).record(Double(transactions))
    }

    /// `entitle_analytics_refresh_duration_seconds` and `entitle_analytics_last_refresh_timestamp_seconds`.
    func recordAnalyticsRefresh(duration: Duration, at: Date) {
        registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_analytics_refresh_duration", unitName: "seconds", helpText: "Duration of analytics refreshes."),
            buckets: Self.durationBuckets
        ).record(duration)
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_analytics_last_refresh_timestamp", unitName: "seconds",
                helpText: "When the analytics aggregates last caught up with the ledger (Unix time).")
        ).set(at.timeIntervalSince1970)
    }

    /// `entitle_business_check_ratio{app,check,currency}` and `entitle_business_check_threshold_ratio`:
    /// each business check's value (when there was something to measure) and its threshold, as the
    /// dashboard's panel shows them; the alert rules compare the two (docs/prometheus).
    func recordBusinessHealth(app: BundleID, _ health: BusinessHealth) {
        for check in health.checks {
            let labels = [("app", app.rawValue), ("check", check.check), ("currency", check.currency ?? "")]
            if let value = check.value {
                registry.makeGauge(
                    descriptor: MetricNameDescriptor(
                        metricName: "entitle_business_check", unitName: "ratio", helpText: "A business check's value (docs/growth.md)."),
                    labels: labels
                ).set(value)
            }
            registry.makeGauge(
                descriptor: MetricNameDescriptor(
                    metricName: "entitle_business_check_threshold", unitName: "ratio", helpText: "A business check's threshold, from the app's catalog."),
                labels: labels
            ).set(check.threshold)
        }
    }

    /// The gauges read from the ledger when `/metrics` is scraped: `entitle_ledger_held_events` (events
    /// waiting for an owner), `entitle_analytics_pending_events` (events analytics has not read) and
    /// `entitle_analytics_recomputing_apps` (apps whose analytics recompute is under way).
    func recordLedgerState(heldEvents: Int, analyticsPending: Int, recomputingApps: Int) {
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_ledger_held", unitName: "events", helpText: "Ledger events held for a purchase no subscriber owns yet.")
        ).set(Double(heldEvents))
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_analytics_pending", unitName: "events", helpText: "Ledger events the analytics aggregates have not read yet.")
        ).set(Double(analyticsPending))
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_analytics_recomputing", unitName: "apps",
                helpText: "Apps whose analytics recompute is under way; their next refresh, and any report, finishes it first.")
        ).set(Double(recomputingApps))
    }

    /// `process_resident_memory_bytes`, `entitle_heap_in_use_bytes` and `entitle_heap_free_bytes`, read
    /// when `/metrics` is scraped (``ProcessMemory``): resident memory beside what the allocator has in
    /// use, so a rise of one without the other tells the allocator's keeping from a leak.
    func recordProcessMemory(_ memory: ProcessMemory) {
        registry.makeGauge(
            descriptor: MetricNameDescriptor(metricName: "process_resident_memory", unitName: "bytes", helpText: "Resident memory size in bytes.")
        ).set(Double(memory.residentBytes))
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_heap_in_use", unitName: "bytes", helpText: "Bytes of live allocations (glibc's mallinfo2: uordblks + hblkhd).")
        ).set(Double(memory.heapInUseBytes))
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_heap_free", unitName: "bytes", helpText: "Bytes the allocator keeps free in its arenas for reuse (mallinfo2: fordblks).")
        ).set(Double(memory.heapFreeBytes))
    }

    /// `entitle_database_sessions{kind}` (in use now) and `entitle_database_session_wait_seconds{kind}`
    /// (how long each waited for its connection).
    func recordSessionStarted(kind: StorageObserver.SessionKind, waited: Duration) {
        sessionsInUse(kind).increment()
        Self.cached(sessionWaitHistograms, kind) {
            registry.makeDurationHistogram(
                descriptor: MetricNameDescriptor(
                    metricName: "entitle_database_session_wait", unitName: "seconds",
                    helpText: "How long a database session waited for its connection (pool lease, SQLite writer or reader)."),
                labels: [("kind", kind.rawValue)],
                buckets: Self.durationBuckets
            )
        }.record(waited)
    }

    func recordSessionEnded(kind: StorageObserver.SessionKind) {
        sessionsInUse(kind).decrement()
    }

    private func sessionsInUse(_ kind: StorageObserver.SessionKind) -> Gauge {
        Self.cached(sessionGauges, kind) {
            registry.makeGauge(
                descriptor: MetricNameDescriptor(metricName: "entitle_database", unitName: "sessions", helpText: "Database sessions using a connection now, by kind."),
                labels: [("kind", kind.rawValue)])
        }
    }

    /// `entitle_database_max_sessions`: how many sessions the database runs at once (the pool's size).
    public func recordSessionCapacity(_ capacity: Int) {
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_database_max", unitName: "sessions", helpText: "How many database sessions can use a connection at once (pool size).")
        ).set(Double(capacity))
        for kind in StorageObserver.SessionKind.allCases { _ = sessionsInUse(kind) }
    }

    /// The storage observer that records group commits and database sessions here.
    public var storageObserver: StorageObserver {
        StorageObserver(
            groupCommitted: { [self] in self.recordGroupCommit(transactions: $0) },
            sessionStarted: { [self] in self.recordSessionStarted(kind: $0, waited: $1) },
            sessionEnded: { [self] in self.recordSessionEnded(kind: $0) })
    }

    /// The exposition text.
    public func render() -> String {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
