import Foundation
import Hummingbird
import NIOCore
import Synchronization

/// The developer's webhook endpoint: counts each webhook event it is sent by ID (receivers
/// de-duplicate by ID; a repeat is an at-least-once delivery sent again, not a loss).
final class DeliverySink: Sendable {
    let port: Int
    private let received = Mutex<(ids: Set<String>, requests: Int)>(([], 0))
    private let running = Mutex<Task<Void, any Error>?>(nil)

    init(port: Int) {
        self.port = port
    }

    var url: String { "http://127.0.0.1:\(port)/hooks" }
    var counts: (distinct: Int, requests: Int) { received.withLock { ($0.ids.count, $0.requests) } }

    func start() async throws {
        let router = Router()
        router.post("hooks") { request, _ -> HTTPResponse.Status in
            let body = try await request.body.collect(upTo: 4 << 20)
            let id = (try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])?["id"] as? String
            self.received.withLock { received in
                received.requests += 1
                if let id { received.ids.insert(id) }
            }
            return .ok
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        running.withLock { $0 = Task { try await app.runService(gracefulShutdownSignals: []) } }
        try await Task.sleep(for: .milliseconds(300))
    }

    func stop() async {
        let task = running.withLock { $0 }
        task?.cancel()
        _ = await task?.result
    }
}
