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
        try await gracefulShutdown()
    }
}
