import AsyncHTTPClient
import BenchmarkSupport
import Foundation
import NIOCore

/// HTTP load on the soaked server: ``OpenLoopLoad``'s schedules, with requests to one server.
final class Load: Sendable {
    let http: HTTPClient
    let load = OpenLoopLoad()

    init(http: HTTPClient) {
        self.http = http
    }

    /// Sends `request(n)` (its HTTP status) at `rate` per second (or once `every`, with a rate of 0)
    /// until `end`, without waiting for answers.
    func schedule(
        _ name: String, rate: Int, every: Duration = .zero, until end: ContinuousClock.Instant,
        _ request: @escaping @Sendable (Int) async throws -> UInt
    ) async {
        await load.schedule(name, rate: rate, every: every, until: end) { number in
            do {
                return OpenLoopLoad.Outcome(status: try await request(number))
            } catch {
                return OpenLoopLoad.Outcome(status: 0, failure: "\(error)")
            }
        }
    }

    func failures() -> [String] { load.failures() }

    /// A Markdown row per kind of request.
    func report() -> [String] { load.report() }

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
