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

    init(simulations: [DemoSimulation], exitAfterSummary: Bool) {
        precondition(!simulations.isEmpty, "a demo plays at least one app")
        self.simulations = simulations
        self.exitAfterSummary = exitAfterSummary
        self.current = NIOLockedValueBox(simulations[0].clock)
    }

    /// The server's clock.
    var now: @Sendable () -> Date {
        { [current] in current.withLockedValue { $0 }.now() }
    }

    /// Whether the API disagreed with the store on any purchase of any app.
    var disagreed: Bool { simulations.contains { $0.disagreed.withLockedValue { $0 } } }

    func run() async throws {
        for simulation in simulations {
            current.withLockedValue { $0 = simulation.clock }
            if simulations.count > 1, let app = simulation.app { DemoOutput.line("\n== \(app)") }
            try await simulation.play()
        }
        guard !exitAfterSummary else { return }
        let first = simulations[0]
        DemoOutput.line(DemoSimulation.explore(secretKey: first.secretKey, baseURL: first.baseURL, app: simulations.count > 1 ? first.app : nil))
        if let sampleApp, let appKey = await first.createAppKey(app: sampleApp.bundleID) {
            DemoOutput.line("""
                The sample app (EntitleKit, buying from this local App Store):
                  swift run sample-app --server \(first.baseURL) --app-key \(appKey) --server-public-key \(sampleApp.publicKey) --bundle-id \(sampleApp.bundleID) status
                  … purchase PRODUCT_ID, restore, access FEATURE, use QUOTA, login ID, offerings; --offline as on a plane
                """)
        }
        try await gracefulShutdown()
    }
}
