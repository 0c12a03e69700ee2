import Foundation
import EntitleTestSupport
import Hummingbird
import LocalAppStore
import Synchronization

/// The App Store Server API the benchmarks' servers reconcile with: the local stand-in
/// (``LocalServerAPI``, which checks each request's JWT as Apple does) on loopback. It knows none of
/// the population's purchases: asked about one, it answers 404. The cluster soak records in its
/// Notification History the notifications of the first app that no instance acknowledged, those
/// reconciliation has to find (Apple's holds every one; the stand-in looks through what it holds one by
/// one, which at the soak's 180,000 notifications would make it, not Entitle, the bottleneck).
public final class AppleStandIn: Sendable {
    public let api: LocalServerAPI
    public let port: Int
    private let running = Mutex<Task<Void, any Error>?>(nil)

    public init(api: LocalServerAPI, port: Int) {
        self.api = api
        self.port = port
    }

    public func start() async throws {
        let app = Application(router: api.router(), configuration: .init(address: .hostname("127.0.0.1", port: port)))
        running.withLock { $0 = Task { try await app.runService(gracefulShutdownSignals: []) } }
        try await Task.sleep(for: .milliseconds(300))
    }

    public func stop() async {
        let task = running.withLock { $0 }
        task?.cancel()
        _ = await task?.result
    }
}
