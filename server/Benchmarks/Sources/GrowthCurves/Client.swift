import AsyncHTTPClient
import EntitleWire
import Foundation
import LedgerPopulation
import NIOCore

/// The growth run's HTTP client of the server on loopback.
struct Client: Sendable {
    let http: HTTPClient
    var base: String { "http://127.0.0.1:\(GrowthCurves.port)" }

    func waitForServer() async throws {
        for _ in 0..<1_200 {
            if (try? await get("/ready", app: nil).status) == 200 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw CancellationError()
    }

    /// The status, and the cookies the answer sets.
    func get(_ path: String, app: String?, cookie: String? = nil) async throws -> (status: UInt, cookies: [String]) {
        var request = HTTPClientRequest(url: base + path)
        if let cookie {
            request.headers.add(name: "Cookie", value: cookie)
        } else {
            request.headers.add(name: "Authorization", value: "Bearer \(GrowthCurves.key)")
        }
        if let app { request.headers.add(name: "Entitle-App", value: app) }
        let response = try await http.execute(request, timeout: .seconds(60))
        _ = try await response.body.collect(upTo: 64 << 20)
        return (response.status.code, Self.cookies(response.headers["Set-Cookie"]))
    }

    func post<Body: Encodable>(_ path: String, app: String?, key: String?, body: Body) async throws -> UInt {
        var request = HTTPClientRequest(url: base + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let key { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        if let app { request.headers.add(name: "Entitle-App", value: app) }
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        let response = try await http.execute(request, timeout: .seconds(60))
        _ = try await response.body.collect(upTo: 1 << 20)
        return response.status.code
    }

    /// Starts a reconciliation pass of `app` and waits for its report; a pass that fails fails the run.
    func reconcile(app: String) async throws -> ReconciliationResponse {
        var request = HTTPClientRequest(url: base + "/v1/reconciliation")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Authorization", value: "Bearer \(GrowthCurves.key)")
        request.headers.add(name: "Entitle-App", value: app)
        request.body = .bytes(ByteBuffer(string: "{}"))
        var job = try await json(ReconciliationJobResponse.self, try await http.execute(request, timeout: .seconds(60)))
        while job.state == "running" {
            try await Task.sleep(for: .seconds(1))
            var poll = HTTPClientRequest(url: base + "/v1/reconciliation/\(job.id)")
            poll.headers.add(name: "Authorization", value: "Bearer \(GrowthCurves.key)")
            poll.headers.add(name: "Entitle-App", value: app)
            job = try await json(ReconciliationJobResponse.self, try await http.execute(poll, timeout: .seconds(60)))
        }
        guard let report = job.report else { throw Failure(message: "the reconciliation pass \(job.id) ended \(job.state): \(String(describing: job.error))") }
        return report
    }

    private func json<T: Decodable>(_ type: T.Type, _ response: HTTPClientResponse) async throws -> T {
        let body = try await response.body.collect(upTo: 1 << 20)
        guard (200..<300).contains(response.status.code) else { throw Failure(message: "HTTP \(response.status.code): \(String(buffer: body))") }
        return try WireJSON.decoder.decode(T.self, from: Data(buffer: body))
    }

    /// `count` requests at `rate` per second, each timed from when it was due (queueing counts), without
    /// waiting for answers before sending the next: p50 and p99 in ms, and how many failed.
    func fixedRate(rate: Int, count: Int, _ request: @escaping @Sendable (Int) -> (path: String, app: String)) async throws -> (Double, Double, Int) {
        let interval = Duration.nanoseconds(1_000_000_000 / rate)
        let clock = ContinuousClock()
        let start = clock.now
        let latencies = try await withThrowingTaskGroup(of: Double?.self) { group in
            for number in 0..<count {
                let due = start + interval * number
                try await clock.sleep(until: due)
                group.addTask {
                    let (path, app) = request(number)
                    guard (try? await get(path, app: app).status) == 200 else { return nil }
                    return Run.seconds(clock.now - due) * 1000
                }
            }
            var latencies: [Double?] = []
            for try await latency in group { latencies.append(latency) }
            return latencies
        }
        let answered = latencies.compactMap { $0 }
        return (Table.percentile(answered, 0.5), Table.percentile(answered, 0.99), latencies.count - answered.count)
    }

    /// The median of five requests of `path` after a first one, in ms; a failure fails the run.
    func median(_ path: String, app: String?, cookie: String? = nil) async throws -> Double {
        let clock = ContinuousClock()
        var times: [Double] = []
        for attempt in 0..<6 {
            let started = clock.now
            let status = try await get(path, app: app, cookie: cookie).status
            guard status == 200 else { throw Failure(message: "GET \(path) answered \(status)") }
            if attempt > 0 { times.append(Run.seconds(clock.now - started) * 1000) }
        }
        return Table.percentile(times, 0.5)
    }

    /// A gauge of the server's `/metrics` (the first series of that name), or `nil`.
    func gauge(_ name: String) async throws -> Double? {
        let response = try await http.execute(HTTPClientRequest(url: base + "/metrics"), timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 16 << 20)
        return String(buffer: body).split(separator: "\n").first { $0.hasPrefix(name + " ") }?.split(separator: " ").last.flatMap { Double($0) }
    }

    /// A dashboard session cookie, with `app` chosen: what a signed-in browser sends.
    func dashboardSession(app: String) async throws -> String {
        var request = HTTPClientRequest(url: base + "/dashboard/login")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Origin", value: base)
        request.body = .bytes(ByteBuffer(string: "key=\(GrowthCurves.key)"))
        let response = try await http.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        guard let session = Self.cookies(response.headers["Set-Cookie"]).first else { throw Failure(message: "the dashboard sign-in set no cookie (\(response.status))") }
        let chosen = try await get("/dashboard/apps/\(app)", app: nil, cookie: session)
        return ([session] + chosen.cookies).joined(separator: "; ")
    }

    static func cookies(_ headers: [String]) -> [String] {
        headers.compactMap { $0.split(separator: ";").first.map(String.init) }
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
