import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// A developer's webhook endpoint on loopback: records every request it gets and answers with the
/// status the test sets (200 by default, 503 while "down"), or, while held, not yet.
public final class WebhookReceiver: Sendable {
    public struct Request: Sendable {
        public var headers: [String: String]
        public var body: String
    }

    private let state = NIOLockedValueBox<(requests: [Request], status: Int, held: Bool)>(([], 200, false))

    public var requests: [Request] { state.withLockedValue { $0.requests } }
    /// The requests it answered with 2xx.
    public var accepted: [Request] { state.withLockedValue { $0.requests.filter { $0.headers["x-answered"] == "2xx" } } }

    public func answer(_ status: Int) { state.withLockedValue { $0.status = status } }

    /// Requests from now on are recorded (as `held`) and left unanswered until ``release()``.
    public func hold() { state.withLockedValue { $0.held = true } }

    public func release() { state.withLockedValue { $0.held = false } }

    private var isHolding: Bool { state.withLockedValue { $0.held } }

    private func record(_ request: Request) -> Int {
        state.withLockedValue { state in
            var request = request
            request.headers["x-answered"] = state.held ? "held" : (200..<300).contains(state.status) ? "2xx" : "\(state.status)"
            state.requests.append(request)
            return state.status
        }
    }

    /// Runs the receiver for the duration of `body`, which gets its URL.
    public static func run(_ body: @Sendable (URL, WebhookReceiver) async throws -> Void) async throws {
        let receiver = WebhookReceiver()
        let router = Router()
        router.post("/hooks") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 4 * 1024 * 1024)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            let status = receiver.record(Request(headers: headers, body: String(buffer: bytes)))
            while receiver.isHolding { try await Task.sleep(for: .milliseconds(5)) }
            return Response(status: HTTPResponse.Status(code: status))
        }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.runService(gracefulShutdownSignals: []) }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { return }
            try await body(URL(string: "http://127.0.0.1:\(port)/hooks")!, receiver)
            group.cancelAll()
        }
    }
}
