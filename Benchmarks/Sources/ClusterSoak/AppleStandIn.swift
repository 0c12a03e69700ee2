import Foundation
import EntitleTestSupport
import Hummingbird
import LocalAppStore
import Synchronization

/// The App Store Server API the instances reconcile with: the local stand-in (``LocalServerAPI``,
/// which checks each request's JWT as Apple does) on loopback. The soak records in its Notification
/// History the notifications of the first app that no instance acknowledged, those reconciliation
/// has to find (Apple's holds every one; the stand-in looks through what it holds one by one, which
/// at the soak's 180,000 notifications would make it, not Entitle, the bottleneck). It knows none of
/// the population's purchases: asked about one, it answers 404.
final class AppleStandIn: Sendable {
    let api: LocalServerAPI
    let port: Int
    private let running = Mutex<Task<Void, any Error>?>(nil)

    init(api: LocalServerAPI, port: Int) {
        self.api = api
        self.port = port
    }

    func start() async throws {
        let app = Application(router: api.router(), configuration: .init(address: .hostname("127.0.0.1", port: port)))
        running.withLock { $0 = Task { try await app.runService(gracefulShutdownSignals: []) } }
        try await Task.sleep(for: .milliseconds(300))
    }

    func stop() async {
        let task = running.withLock { $0 }
        task?.cancel()
        _ = await task?.result
    }
}
