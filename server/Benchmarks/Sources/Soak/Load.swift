import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// Open-loop HTTP load on the soaked server: each kind of request on its own schedule, latencies
/// counted from when a request was due.
final class Load: Sendable {
    struct Tally {
        var sent = 0
        var succeeded = 0
        var failed = 0
        var latencies: [Double] = []
        /// Why requests failed: a status the server answered, or the client's error.
        var reasons: [String: Int] = [:]
    }

    let http: HTTPClient
    private let tallies = Mutex<[(String, Tally)]>([])

    init(http: HTTPClient) {
        self.http = http
    }

    /// Sends `request(n)` at `rate` per second (or once `every`, with a rate of 0) until `end`, without
    /// waiting for answers.
    func schedule(
        _ name: String, rate: Int, every: Duration = .zero, until end: ContinuousClock.Instant,
        _ request: @escaping @Sendable (Int) async throws -> UInt
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
                    let outcome: Result<UInt, any Error>
                    do { outcome = .success(try await request(number)) } catch { outcome = .failure(error) }
                    let latency = Soak.seconds(clock.now - scheduled) * 1000
                    self.tallies.withLock { tallies in
                        tallies[slot].1.sent += 1
                        switch outcome {
                        case .success(let status) where (200..<300).contains(status):
                            tallies[slot].1.succeeded += 1
                            tallies[slot].1.latencies.append(latency)
                        case .success(let status):
                            tallies[slot].1.failed += 1
                            tallies[slot].1.reasons["HTTP \(status)", default: 0] += 1
                        case .failure(let error):
                            tallies[slot].1.failed += 1
                            tallies[slot].1.reasons["\(error)", default: 0] += 1
                        }
                    }
                }
                due = due + interval
                index += 1
            }
        }
    }

    /// Why requests of each kind failed, when some did.
    func failures() -> [String] {
        tallies.withLock { tallies in
            tallies.compactMap { name, tally -> String? in
                guard !tally.reasons.isEmpty else { return nil }
                let reasons = tally.reasons.sorted { $0.value > $1.value }.map { "\($0.value) × \($0.key)" }
                return "\(name) failed: " + reasons.joined(separator: ", ")
            }
        }
    }

    /// A Markdown row per kind of request.
    func report() -> [String] {
        tallies.withLock { tallies in
            tallies.map { name, tally in
                let sorted = tally.latencies.sorted()
                func percentile(_ p: Double) -> String {
                    sorted.isEmpty ? "-" : String(format: "%.2f ms", sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))])
                }
                return "| \(name) | \(tally.sent) | \(tally.succeeded) | \(tally.failed) | \(percentile(0.5)) | \(percentile(0.99)) |"
            }
        }
    }

    func waitForServer() async throws {
        for _ in 0..<600 {
            if (try? await get("/health", app: nil)) == 200 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw CancellationError()
    }

    func get(_ path: String, app: String?) async throws -> UInt {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(Soak.port)\(path)")
        headers(&request, app: app, key: Soak.key)
        return try await send(request)
    }

    func post<Body: Encodable>(_ path: String, app: String?, key: String? = Soak.key, body: Body) async throws -> UInt {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(Soak.port)\(path)")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        headers(&request, app: app, key: key)
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        return try await send(request)
    }

    private func headers(_ request: inout HTTPClientRequest, app: String?, key: String?) {
        if let key { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        if let app { request.headers.add(name: "Entitle-App", value: app) }
    }

    private func send(_ request: HTTPClientRequest) async throws -> UInt {
        let response = try await http.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 4 << 20)
        return response.status.code
    }
}
