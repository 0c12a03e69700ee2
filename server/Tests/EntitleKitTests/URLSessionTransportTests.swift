import EntitleAPI
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The apps' HTTP transport over `URLSession`, against a server on loopback.
@Suite("URLSessionTransport")
struct URLSessionTransportTests {
    /// Runs `body` with the URL of a server answering `/fast` at once and `/slow` only once `body` has
    /// returned (its one request held meanwhile, however loaded the machine).
    static func withServer(_ body: @Sendable (URL) async throws -> Void) async throws {
        let (released, release) = AsyncStream<Void>.makeStream()
        let router = Router()
        router.get("/fast") { _, _ in "ok" }
        router.get("/slow") { _, _ -> String in
            for await _ in released {}
            return "late"
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            defer { release.finish() }
            let port = try #require(client.port)
            try await body(try #require(URL(string: "http://127.0.0.1:\(port)")))
        }
    }

    @Test("a request cancelled while the server holds it ends with a network error, and the next one is answered", .timeLimit(.minutes(1)))
    func cancelledInFlight() async throws {
        try await Self.withServer { url in
            let transport = URLSessionTransport()
            let slow = Task { try await transport.send(APIRequest(method: "GET", path: "/slow"), to: url, timeout: .seconds(60)) }
            try await Task.sleep(for: .milliseconds(200))
            slow.cancel()
            await #expect(throws: APIClientError.self) { try await slow.value }
            let fast = try await transport.send(APIRequest(method: "GET", path: "/fast"), to: url, timeout: .seconds(10))
            #expect(fast.status == 200 && String(decoding: fast.body, as: UTF8.self) == "ok")
        }
    }

    // The limit only stops a hang: 2,000 requests take ~5 s alone and over a minute beside the whole suite.
    @Test("requests cancelled at every moment around their answer each end, answered or with a network error", .timeLimit(.minutes(3)))
    func cancelledAroundTheAnswer() async throws {
        try await Self.withServer { url in
            let transport = URLSessionTransport()
            // Eight callers at once, 250 requests each.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for caller in 0..<8 {
                    group.addTask {
                        for round in 0..<250 {
                            let request = Task { try await transport.send(APIRequest(method: "GET", path: "/fast"), to: url, timeout: .seconds(10)) }
                            // Cancel after a number of yields that varies from round to round, so some cancellations
                            // come before the request leaves, some while its answer is being delivered, some after.
                            for _ in 0..<((round + caller) % 40) { await Task.yield() }
                            request.cancel()
                            switch await request.result {
                            case .success(let response): #expect(response.status == 200)
                            case .failure(let error): #expect((error as? APIClientError)?.code == .network, "\(error)")
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }
}
