import AsyncHTTPClient
import EntitleAPI
import EntitleWire
import Foundation
import LocalAppStore
import Logging
import ServiceLifecycle
import NIOConcurrencyHelpers

/// The demo's population run, as a service beside the server: waits for the server, plays the
/// population, prints the summary, then lets the clock run in real time.
final class DemoSimulation: Service {
    let plan: PopulationPlan
    let store: StoreSimulator
    let end: Date
    let clock: SimulationClock
    let baseURL: String
    /// The server, as a URL (`baseURL` checked).
    let base: URL
    let secretKey: String
    let http: HTTPClient
    let delivery: DeliveryOptions
    let logger: Logger
    let exitAfterSummary: Bool
    /// The app the simulation plays, named to a server of several apps.
    let app: String?
    /// Whether the API disagreed with the store on any purchase.
    let disagreed = NIOLockedValueBox(false)
    /// The store's App Store Server API (its Notification History holds every notification sent).
    let history: LocalServerAPI?
    /// How often, in simulated time, the server reconciles with it; `nil` for never.
    let reconcileEvery: TimeInterval?

    init(
        plan: PopulationPlan, store: StoreSimulator, end: Date, clock: SimulationClock, baseURL: String, base: URL, secretKey: String, http: HTTPClient,
        delivery: DeliveryOptions, logger: Logger, exitAfterSummary: Bool, app: String? = nil, history: LocalServerAPI? = nil,
        reconcileEvery: TimeInterval? = nil
    ) {
        self.app = app
        self.history = history
        self.reconcileEvery = reconcileEvery
        self.plan = plan
        self.store = store
        self.end = end
        self.clock = clock
        self.baseURL = baseURL
        self.base = base
        self.secretKey = secretKey
        self.http = http
        self.delivery = delivery
        self.logger = logger
        self.exitAfterSummary = exitAfterSummary
    }

    func run() async throws {
        try await play()
        guard !exitAfterSummary else { return }
        DemoOutput.line(Self.explore(secretKey: secretKey, baseURL: baseURL, app: app))
        try await gracefulShutdown()
    }

    /// A new app key for `app`, made through the admin API with the demo's secret key.
    func createAppKey(app: String) async -> String? {
        let transport = AsyncHTTPClientTransport(client: http)
        guard let body = try? WireJSON.encoder.encode(CreateKeyRequest(kind: "app", name: "sample app")),
            let response = try? await transport.send(
                APIRequest(
                    method: "POST", path: "/v1/keys",
                    headers: ["Authorization": "Bearer \(secretKey)", "Content-Type": "application/json", "Entitle-App": app], body: body),
                to: base, timeout: .seconds(10)),
            response.status == 201
        else { return nil }
        return (try? WireJSON.decoder.decode(KeyInfo.self, from: response.body))?.key
    }

    /// The app's webhooks as `GET /v1/webhooks/status` reports them; `nil` when it can't be asked.
    func webhookStatus() async -> WebhookStatusResponse? {
        let transport = AsyncHTTPClientTransport(client: http)
        var headers = ["Authorization": "Bearer \(secretKey)"]
        if let app { headers["Entitle-App"] = app }
        guard let response = try? await transport.send(
            APIRequest(method: "GET", path: "/v1/webhooks/status", headers: headers), to: base, timeout: .seconds(10)),
            response.status == 200
        else { return nil }
        return try? WireJSON.decoder.decode(WebhookStatusResponse.self, from: response.body)
    }

    /// One reconciliation pass through the admin API, as `entitle reconcile` runs it: started as a job,
    /// waited for, polled until it ends.
    func reconcile() async throws(LocalStoreError) -> ReconciliationResponse {
        let transport = AsyncHTTPClientTransport(client: http)
        var headers = ["Authorization": "Bearer \(secretKey)", "Content-Type": "application/json"]
        if let app { headers["Entitle-App"] = app }
        var request = APIRequest(method: "POST", path: "/v1/reconciliation", headers: headers.merging(["Prefer": "wait=30"]) { $1 }, body: Data("{}".utf8))
        while true {
            let response: APIResponse
            do {
                response = try await transport.send(request, to: base, timeout: .seconds(60))
            } catch {
                throw LocalStoreError(.deliveryFailed, "reconciliation: \(error.message)")
            }
            guard (200...202).contains(response.status), let job = try? WireJSON.decoder.decode(ReconciliationJobResponse.self, from: response.body) else {
                throw LocalStoreError(.deliveryFailed, "reconciliation answered \(response.status): \(String(decoding: response.body, as: UTF8.self))")
            }
            switch job.state {
            case "completed":
                guard let report = job.report else { throw LocalStoreError(.deliveryFailed, "reconciliation job \(job.id) completed with no report") }
                return report
            case "running":
                request = APIRequest(method: "GET", path: "/v1/reconciliation/\(job.id)", headers: headers)
                try? await Task.sleep(for: .milliseconds(200))
            default:
                throw LocalStoreError(.deliveryFailed, "reconciliation job \(job.id) failed: \(job.error.map { "\($0.code) \($0.message)" } ?? job.state.rawValue)")
            }
        }
    }

    /// What to try once the simulation has played.
    static func explore(secretKey: String, baseURL: String, app: String?) -> String {
        let header = app.map { " -H 'Entitle-App: \($0)'" } ?? ""
        return """

            Explore (the clock now runs in real time from the simulation's end):
              curl -H 'Authorization: Bearer \(secretKey)'\(header) \(baseURL)/v1/subscribers/user-00001
              curl -H 'Authorization: Bearer \(secretKey)'\(header) \(baseURL)/v1/subscribers/user-00001/events
              curl \(baseURL)/metrics
              open \(baseURL)/dashboard and sign in with the secret key for the analytics
            Ctrl-C stops the server.
            """
    }

    /// Waits for the server, plays the population, prints the summary and releases the clock.
    func play() async throws {
        let app = SubscriberAPIClient(baseURL: base, key: secretKey, app: self.app, transport: AsyncHTTPClientTransport(client: http))
        var healthy = false
        for _ in 0..<200 where !healthy {
            healthy = await app.isHealthy()
            if !healthy { try await Task.sleep(for: .milliseconds(50)) }
        }
        guard healthy else { throw LocalStoreError(.deliveryFailed, "the server did not answer \(baseURL)/health") }
        let notifications = NotificationDelivery(
            url: baseURL + "/v1/app-store/notifications", client: http, options: delivery, history: history, logger: logger)
        var simulation = PopulationSimulation(plan: plan, store: store, delivery: notifications, app: app, clock: clock, end: end)
        let totals = NIOLockedValueBox((passes: 0, read: 0, added: 0, fromStatuses: 0, last: 0.0))
        if let reconcileEvery {
            simulation.every(reconcileEvery) { _ throws(LocalStoreError) in
                let report = try await self.reconcile()
                totals.withLockedValue { totals in
                    totals.passes += 1
                    totals.read += report.notificationsRead
                    totals.added += report.notificationsAdded
                    totals.fromStatuses += report.statusEventsAdded
                    totals.last = report.seconds
                }
            }
        }
        let started = ContinuousClock.now
        let summary = try await simulation.run { progress in
            DemoOutput.line("  simulated \(progress.now.formatted(.iso8601.year().month().day())): \(progress.events) events, \(progress.notifications) notifications")
        }
        clock.release()
        disagreed.withLockedValue { $0 = !summary.mismatches.isEmpty }
        DemoOutput.line(summary.text)
        if reconcileEvery != nil {
            let totals = totals.withLockedValue { $0 }
            DemoOutput.line("""
                  reconciliation (App Store Server API, every \(Int((reconcileEvery ?? 0) / 86_400)) simulated days): \(totals.passes) passes read \(totals.read) notifications \
                and added \(totals.added + totals.fromStatuses) events (\(totals.added) lost notifications, \(totals.fromStatuses) from subscription statuses); \
                the last pass took \(String(format: "%.2f", totals.last)) s
                """)
        }
        for mismatch in summary.mismatches.prefix(10) {
            DemoOutput.line("    \(mismatch.appUserID) \(mismatch.originalTransactionID): store \(mismatch.expected), API \(mismatch.reported)")
        }
        DemoOutput.line("  took \((ContinuousClock.now - started).formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1))))")
    }
}
