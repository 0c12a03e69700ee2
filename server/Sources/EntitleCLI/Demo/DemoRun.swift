import EntitleWire
import Foundation
import LocalAppStore
import NIOConcurrencyHelpers
import ServiceLifecycle

/// The demo's populations, one app after another, as a service beside the server. The server's clock
/// follows the app being played (each app's population runs over the same months); once all have
/// played, it runs in real time from their end.
final class DemoRun: Service {
    let simulations: [DemoSimulation]
    let exitAfterSummary: Bool
    /// The clock of the app being played; the server reads it.
    let current: NIOLockedValueBox<SimulationClock>
    /// The server's public signing key and the first app, for the sample app's command line.
    var sampleApp: (publicKey: String, bundleID: String)? {
        get { sample.withLockedValue { $0 } }
        set { sample.withLockedValue { $0 = newValue } }
    }
    private let sample = NIOLockedValueBox<(publicKey: String, bundleID: String)?>(nil)

    /// Whether webhook endpoints are configured: with `--exit`, the demo waits until they have what
    /// happened (or gave up) before it stops.
    let sendsWebhooks: Bool

    init(simulations: [DemoSimulation], exitAfterSummary: Bool, sendsWebhooks: Bool = false) {
        precondition(!simulations.isEmpty, "a demo plays at least one app")
        self.simulations = simulations
        self.exitAfterSummary = exitAfterSummary
        self.sendsWebhooks = sendsWebhooks
        self.current = NIOLockedValueBox(simulations[0].clock)
    }

    /// The server's clock.
    var now: @Sendable () -> Date {
        { [current] in current.withLockedValue { $0 }.now() }
    }

    /// Whether the API disagreed with the store on any purchase of any app.
    var disagreed: Bool { simulations.contains { $0.disagreed.withLockedValue { $0 } } }

    /// Prints what the webhooks delivered, after waiting (up to two minutes) for every event to be
    /// published and every delivery to be settled when `waiting`.
    func reportWebhooks(waiting: Bool) async {
        var statuses: [WebhookStatusResponse] = []
        for _ in 0..<(waiting ? 240 : 1) where !Task.isCancelled {
            statuses = []
            for simulation in simulations { if let status = await simulation.webhookStatus() { statuses.append(status) } }
            if statuses.count == simulations.count, statuses.allSatisfy({ $0.pending == 0 && $0.unpublishedEvents == 0 }) { break }
            try? await Task.sleep(for: .milliseconds(500))
        }
        let total = statuses.reduce(into: (delivered: 0, failed: 0, pending: 0)) {
            $0.delivered += $1.delivered
            $0.failed += $1.failed
            $0.pending += $1.pending + $1.unpublishedEvents
        }
        DemoOutput.line("  webhooks     \(total.delivered) delivered, \(total.failed) failed for good, \(total.pending) waiting")
    }

    func run() async throws {
        // Ctrl-C (SIGINT) or SIGTERM at any moment: the simulation stops at its next step.
        let played: Bool = try await cancelWhenGracefulShutdown {
            for simulation in self.simulations {
                guard !Task.isCancelled else { return false }
                self.current.withLockedValue { $0 = simulation.clock }
                if self.simulations.count > 1, let app = simulation.app { DemoOutput.line("\n== \(app)") }
                do {
                    try await simulation.play()
                } catch where Task.isCancelled {
                    return false
                }
            }
            return true
        }
        guard played else {
            DemoOutput.line("stopped")
            return
        }
        if sendsWebhooks { await cancelWhenGracefulShutdown { await self.reportWebhooks(waiting: self.exitAfterSummary) } }
        guard !exitAfterSummary else { return }
        let first = simulations[0]
        DemoOutput.line(DemoSimulation.explore(secretKey: first.secretKey, baseURL: first.baseURL, app: simulations.count > 1 ? first.app : nil))
        if let sampleApp, let appKey = await first.createAppKey(app: sampleApp.bundleID) {
            DemoOutput.line("""
                The sample app (EntitleKit, buying from this local App Store):
                  swift run --package-path server sample-app --server \(first.baseURL) --app-key \(appKey) --server-public-key \(sampleApp.publicKey) --bundle-id \(sampleApp.bundleID) status
                  … purchase PRODUCT_ID, restore, access FEATURE, use QUOTA, login ID, offerings; --offline as on a plane
                """)
        }
        try await gracefulShutdown()
    }
}
