import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// Open-loop HTTP load on the cluster: each kind of request on its own schedule, sent to the instances in
/// turn; a request an instance didn't answer (killed, restarting) is sent to the other, as a load
/// balancer and Apple's retries would, up to three attempts. Latencies count from when a request was due.
final class Traffic: Sendable {
    struct Tally {
        var sent = 0
        var succeeded = 0
        var failed = 0
        /// Requests answered only after another instance was tried.
        var failedOver = 0
        var latencies: [Double] = []
        var reasons: [String: Int] = [:]
    }

    struct Outcome {
        var status: UInt
        var attempts: Int
    }

    let http: HTTPClient
    let instances: [Instance]
    let key: String
    private let tallies = Mutex<[(String, Tally)]>([])
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
        let clock = ContinuousClock()
        let interval = rate > 0 ? Duration.nanoseconds(1_000_000_000 / rate) : every
        let slot = tallies.withLock { tallies in
            tallies.append((name, Tally()))
            return tallies.count - 1
        }
        await withDiscardingTaskGroup { group in
            var due = clock.now
            var index = 0
            while due < end {
                try? await clock.sleep(until: due)
                let (scheduled, number) = (due, index)
                group.addTask {
                    let outcome = await request(number)
                    let latency = ClusterSoak.seconds(clock.now - scheduled) * 1000
                    self.tallies.withLock { tallies in
                        tallies[slot].1.sent += 1
                        if outcome.attempts > 1 { tallies[slot].1.failedOver += 1 }
                        if (200..<300).contains(outcome.status) {
                            tallies[slot].1.succeeded += 1
                            tallies[slot].1.latencies.append(latency)
                        } else {
                            tallies[slot].1.failed += 1
                            tallies[slot].1.reasons[outcome.status == 0 ? "no instance answered" : "HTTP \(outcome.status)", default: 0] += 1
                        }
                    }
                }
                due = due + interval
                index += 1
            }
        }
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
        return Outcome(status: 0, attempts: attempts)
    }

    func failures() -> [String] {
        tallies.withLock { tallies in
            tallies.compactMap { name, tally -> String? in
                guard !tally.reasons.isEmpty else { return nil }
                return "\(name) failed: " + tally.reasons.sorted { $0.value > $1.value }.map { "\($0.value) × \($0.key)" }.joined(separator: ", ")
            }
        }
    }

    /// A Markdown row per kind of request.
    func report() -> [String] {
        tallies.withLock { tallies in
            tallies.map { name, tally in
                let sorted = tally.latencies.sorted()
                func percentile(_ p: Double) -> String {
                    sorted.isEmpty ? "-" : String(format: "%.1f ms", sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))])
                }
                return "| \(name) | \(tally.sent) | \(tally.succeeded) | \(tally.failed) | \(tally.failedOver) | \(percentile(0.5)) | \(percentile(0.99)) |"
            }
        }
    }
}
