import AsyncHTTPClient
import BenchmarkSupport
import Foundation
import NIOCore
import Synchronization

/// HTTP load on the cluster: ``OpenLoopLoad``'s schedules, each request sent to the instances in turn; a
/// request an instance didn't answer (killed, restarting) is sent to the other, as a load balancer and
/// Apple's retries would, up to three attempts.
final class Traffic: Sendable {
    typealias Outcome = OpenLoopLoad.Outcome

    let http: HTTPClient
    let instances: [Instance]
    let key: String
    let load = OpenLoopLoad()
    /// What the instances acknowledged (2xx): notification UUIDs and usage idempotency keys.
    let acknowledged = Mutex<(notifications: Set<String>, usage: Set<String>)>(([], []))

    init(http: HTTPClient, instances: [Instance], key: String) {
        self.http = http
        self.instances = instances
        self.key = key
    }

    /// Sends `request(n)` at `rate` per second (or once `every`, with a rate of 0) until `end`.
    func schedule(
        _ name: String, rate: Int, every: Duration = .zero, until end: ContinuousClock.Instant,
        _ request: @escaping @Sendable (Int) async -> Outcome
    ) async {
        await load.schedule(name, rate: rate, every: every, until: end, request)
    }

    /// Sends to instance `first` (modulo their number), then the others, until one answers with
    /// anything but 502/503; status 0 when none did.
    func send(first: Int, post: Bool, path: String, app: String?, body: Data?, authorized: Bool = true) async -> Outcome {
        var attempts = 0
        for turn in 0..<3 {
            let instance = instances[(first + turn) % instances.count]
            attempts += 1
            var request = HTTPClientRequest(url: instance.base + path)
            if post { request.method = .POST }
            if authorized { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
            if let app { request.headers.add(name: "Entitle-App", value: app) }
            if let body {
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(bytes: body))
            }
            do {
                let response = try await http.execute(request, timeout: .seconds(30))
                _ = try await response.body.collect(upTo: 4 << 20)
                if response.status.code != 502, response.status.code != 503 { return Outcome(status: response.status.code, attempts: attempts) }
            } catch {
                // Refused or cut: the instance is down or going down.
            }
            try? await Task.sleep(for: .milliseconds(200))
        }
        return Outcome(status: 0, attempts: attempts, failure: "no instance answered")
    }

    func failures() -> [String] { load.failures() }

    /// A Markdown row per kind of request, with how many failed over.
    func report() -> [String] { load.report(failover: true, decimals: 1) }
}
