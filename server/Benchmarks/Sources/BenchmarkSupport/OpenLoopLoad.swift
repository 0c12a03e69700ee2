import Foundation
import Synchronization

/// Open-loop load, as the soaks send it: each kind of request on its own schedule, sent when due without
/// waiting for the answers before it, latencies counted from when a request was due (so a stalled server
/// shows in them rather than slowing the load down).
public final class OpenLoopLoad: Sendable {
    /// What one request came to.
    public struct Outcome: Sendable {
        /// The HTTP status; 0 when nothing answered.
        public var status: UInt
        /// How many instances were tried (a cluster's failover); 1 otherwise.
        public var attempts: Int
        /// Why nothing answered (the client's error), when status is 0.
        public var failure: String?

        public init(status: UInt, attempts: Int = 1, failure: String? = nil) {
            self.status = status
            self.attempts = attempts
            self.failure = failure
        }
    }

    struct Tally {
        var sent = 0
        var succeeded = 0
        var failed = 0
        /// Requests answered only after another instance was tried.
        var failedOver = 0
        var latencies: [Double] = []
        /// Why requests failed: a status the server answered, or what kept it from answering.
        var reasons: [String: Int] = [:]
    }

    private let tallies = Mutex<[(String, Tally)]>([])

    public init() {}

    /// Sends `request(n)` at `rate` per second (or once `every`, with a rate of 0) until `end`.
    public func schedule(
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
                    let latency = (clock.now - scheduled).inSeconds * 1000
                    self.tallies.withLock { tallies in
                        tallies[slot].1.sent += 1
                        if outcome.attempts > 1 { tallies[slot].1.failedOver += 1 }
                        if (200..<300).contains(outcome.status) {
                            tallies[slot].1.succeeded += 1
                            tallies[slot].1.latencies.append(latency)
                        } else {
                            tallies[slot].1.failed += 1
                            let reason = outcome.status == 0 ? outcome.failure ?? "no answer" : "HTTP \(outcome.status)"
                            tallies[slot].1.reasons[reason, default: 0] += 1
                        }
                    }
                }
                due = due + interval
                index += 1
            }
        }
    }

    /// Why requests of each kind failed, when some did.
    public func failures() -> [String] {
        tallies.withLock { tallies in
            tallies.compactMap { name, tally -> String? in
                guard !tally.reasons.isEmpty else { return nil }
                return "\(name) failed: " + tally.reasons.sorted { $0.value > $1.value }.map { "\($0.value) × \($0.key)" }.joined(separator: ", ")
            }
        }
    }

    /// A Markdown row per kind of request: sent, succeeded, failed, (failed over,) p50 and p99 latency.
    public func report(failover: Bool = false, decimals: Int = 2) -> [String] {
        tallies.withLock { tallies in
            tallies.map { name, tally in
                let sorted = tally.latencies.sorted()
                func percentile(_ p: Double) -> String {
                    sorted.isEmpty ? "-" : String(format: "%.\(decimals)f ms", sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))])
                }
                let counts = [tally.sent, tally.succeeded, tally.failed] + (failover ? [tally.failedOver] : [])
                return "| \(name) | " + counts.map(String.init).joined(separator: " | ") + " | \(percentile(0.5)) | \(percentile(0.99)) |"
            }
        }
    }
}

extension Duration {
    /// The duration in seconds, as the benchmarks report it.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
