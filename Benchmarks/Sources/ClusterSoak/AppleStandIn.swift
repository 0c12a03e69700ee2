import Foundation
import HTTPTypes
import Hummingbird
import LocalAppStore
import NIOCore
import Synchronization

/// The App Store Server API the instances reconcile with: the local stand-in (``LocalServerAPI``,
/// which checks each request's JWT as Apple does) on loopback. Every notification the soak sends is
/// recorded in its Notification History, as Apple records what it sends.
final class AppleStandIn: Sendable {
    let api: LocalServerAPI
    let port: Int
    private let running = Mutex<Task<Void, any Error>?>(nil)

    init(api: LocalServerAPI, port: Int) {
        self.api = api
        self.port = port
    }

    func start() async throws {
        let api = api
        let router = Router()
        for method in [HTTPRequest.Method.get, .post, .put] {
            router.on("/**", method: method) { request, _ in
                let body = try await request.body.collect(upTo: 1 << 20)
                var query: [String: String] = [:]
                for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
                let answer = await api.handle(
                    method: request.method.rawValue, path: request.uri.path, query: query, authorization: request.headers[.authorization],
                    body: body.readableBytes > 0 ? Data(body.readableBytesView) : nil)
                var headers = HTTPFields()
                for (name, value) in answer.headers {
                    if let field = HTTPField.Name(name) { headers[field] = value }
                }
                return Response(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
            }
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
