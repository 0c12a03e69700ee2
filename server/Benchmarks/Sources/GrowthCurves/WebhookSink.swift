import Foundation
import LedgerPopulation
import Hummingbird
import Synchronization

/// A webhook endpoint on loopback recording when each subscriber's webhooks arrive.
final class WebhookSink: Sendable {
    let port: Int
    private let arrivals = Mutex<[String: [ContinuousClock.Instant]]>([:])
    private let running = Mutex<Task<Void, any Error>?>(nil)

    init(port: Int) {
        self.port = port
    }

    func start() async throws {
        let router = Router()
        router.post("hooks") { request, _ -> HTTPResponse.Status in
            let body = try await request.body.collect(upTo: 4 << 20)
            if let event = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any], let user = event["appUserID"] as? String {
                self.arrived(user)
            }
            return .ok
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        running.withLock { $0 = Task { try await app.runService() } }
        try await Task.sleep(for: .milliseconds(300))
    }

    private func arrived(_ user: String) {
        arrivals.withLock { $0[user, default: []].append(ContinuousClock.now) }
    }

    func stop() async {
        let task = running.withLock { $0 }
        task?.cancel()
        _ = await task?.result
    }

    /// For each subscriber acknowledged at an instant, how long after it their first webhook arrived
    /// (ms), waiting up to `patience` for all of them.
    func lags(for acknowledged: [String: ContinuousClock.Instant], within patience: Duration) async throws -> [String: Double] {
        let clock = ContinuousClock()
        let deadline = clock.now + patience
        while true {
            let lags = arrivals.withLock { arrivals in
                // A webhook may even arrive before the sender reads its acknowledgement: no lag.
                Dictionary(uniqueKeysWithValues:
                    acknowledged.compactMap { user, ack -> (String, Double)? in
                        guard let first = arrivals[user]?.first else { return nil }
                        return (user, max(0, Run.seconds(first - ack) * 1000))
                    })
            }
            if lags.count == acknowledged.count || clock.now >= deadline { return lags }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
