import AppStoreServerAPI
import AsyncHTTPClient
import EntitleAPI
import EntitleCore
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

    /// The demo's experiment, when the catalog declares a second offering: the default against it,
    /// created and started through the admin API as an operator would.
    func startExperiment() async throws(LocalStoreError) -> String? {
        let catalog = store.catalog
        guard let other = catalog.offerings.first(where: { $0.id != catalog.defaultOfferingID }) else { return nil }
        let request = CreateExperimentRequest(
            id: Self.experimentID, name: "\(catalog.defaultOfferingID) against \(other.id)",
            variants: [ExperimentVariant(id: "control", offeringID: catalog.defaultOfferingID), ExperimentVariant(id: other.id, offeringID: other.id)],
            // Long enough for a purchase made late in the app-managed trial to come out of its introductory one.
            revenueWindowDays: 90)
        let body: Data
        do {
            body = try WireJSON.encoder.encode(request)
        } catch {
            throw LocalStoreError(.deliveryFailed, "the experiment doesn't encode")
        }
        _ = try await admin("POST", "/v1/experiments", body: body, expect: 201)
        _ = try await admin("POST", "/v1/experiments/\(Self.experimentID)/start", body: Data("{}".utf8), expect: 200)
        return other.id
    }

    static let experimentID = "paywall-order"

    /// The experiment's results as `GET /v1/experiments/{id}` reports them, in a line per variant.
    func experimentSummary() async -> String? {
        guard let data = try? await admin("GET", "/v1/experiments/\(Self.experimentID)", body: nil, expect: 200),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let variants = (json["results"] as? [String: Any])?["variants"] as? [[String: Any]]
        else { return nil }
        var lines = ["  experiment \(Self.experimentID) (GET /v1/experiments/\(Self.experimentID)):"]
        for variant in variants {
            let (id, exposed, paid) = (variant["variantID"] as? String ?? "?", variant["exposed"] as? Int ?? 0, variant["paid"] as? Int ?? 0)
            var line = "    \(id.padding(toLength: 18, withPad: " ", startingAt: 0)) \(exposed) exposed, \(paid) paid"
            if exposed > 0 { line += String(format: " (%.1f%%)", Double(paid) / Double(exposed) * 100) }
            if let comparison = variant["paidComparison"] as? [String: Any], let difference = comparison["difference"] as? Double,
                let lower = comparison["lower"] as? Double, let upper = comparison["upper"] as? Double, let chance = comparison["chanceToBeatControl"] as? Double
            {
                line += String(format: "; %+.1f points [%+.1f, %+.1f] vs control, chance to beat it %.1f%%", difference * 100, lower * 100, upper * 100, chance * 100)
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// An admin API call with the demo's secret key; the answer's body when its status is `expect`.
    func admin(_ method: String, _ path: String, body: Data?, expect: Int) async throws(LocalStoreError) -> Data {
        let transport = AsyncHTTPClientTransport(client: http)
        var headers = ["Authorization": "Bearer \(secretKey)", "Content-Type": "application/json"]
        if let app { headers["Entitle-App"] = app }
        let response: APIResponse
        do {
            response = try await transport.send(APIRequest(method: method, path: path, headers: headers, body: body), to: base, timeout: .seconds(30))
        } catch {
            throw LocalStoreError(.deliveryFailed, "\(method) \(path): \(error.message)")
        }
        guard response.status == expect else {
            throw LocalStoreError(.deliveryFailed, "\(method) \(path) answered \(response.status): \(String(decoding: response.body, as: UTF8.self))")
        }
        return response.body
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
        let experimentVariant = try await startExperiment()
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
        disagreed.withLockedValue { $0 = !summary.mismatches.isEmpty || !summary.deviceMismatches.isEmpty }
        DemoOutput.line(summary.text)
        if reconcileEvery != nil {
            let totals = totals.withLockedValue { $0 }
            DemoOutput.line("""
                  reconciliation (App Store Server API, every \(Int((reconcileEvery ?? 0) / 86_400)) simulated days): \(totals.passes) passes read \(totals.read) notifications \
                and added \(totals.added + totals.fromStatuses) events (\(totals.added) lost notifications, \(totals.fromStatuses) from subscription statuses); \
                the last pass took \(String(format: "%.2f", totals.last)) s
                """)
        }
        if let experimentVariant {
            DemoOutput.line("  experiment \(Self.experimentID): control (\(store.catalog.defaultOfferingID)) against \(experimentVariant); " +
                "the population buys \(Int(plan.experimentLift * 100)) points more often when served \(experimentVariant)")
            if let results = await experimentSummary() { DemoOutput.line(results) }
        }
        DemoOutput.line(await businessSummary())
        for mismatch in summary.mismatches.prefix(10) {
            DemoOutput.line("    \(mismatch.appUserID) \(mismatch.originalTransactionID): store \(mismatch.expected), API \(mismatch.reported)")
        }
        for appUserID in summary.deviceMismatches.prefix(10) { DemoOutput.line("    \(appUserID): devices inconsistent with the plan's limit") }
        DemoOutput.line("  took \((ContinuousClock.now - started).formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1))))")
    }
}
