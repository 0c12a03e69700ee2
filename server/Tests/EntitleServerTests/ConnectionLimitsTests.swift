import EntitleServer
import EntitleStorage
import EntitleTestSupport
import Foundation
import HummingbirdTesting
import Logging
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What a client that holds connections open, or announces a huge body, can take of the server.
@Suite("Connection limits")
struct ConnectionLimitsTests {
    /// A server over a fresh SQLite ledger with `http`'s limits, its port given to `body`.
    static func withServer(_ http: HTTPConfiguration, _ body: @Sendable (Int) async throws -> Void) async throws {
        try await StorageEngine.sqlite.withStore { store in
            var configuration = ServerConfiguration(
                http: http, ledger: .store(store), catalog: Fixtures.exampleCatalog("ScreenTimeRewards"), verifiers: [],
                keys: try APIKeys(secretKeys: [ServerHarness.secretKey], publicKeySecret: "public-key-secret-for-tests"),
                analyticsRefreshInterval: nil, now: TestClock().reading, logger: Logger(label: "entitle.tests.server"))
            configuration.webhookInterval = nil
            let app = try await buildApplication(configuration: configuration)
            try await app.test(.live) { client in
                try await body(try #require(client.port))
            }
        }
    }

    /// A TCP connection to the server on loopback whose reads give up after `timeout` seconds.
    final class RawConnection: @unchecked Sendable {
        let socket: Int32
        private var closed = false

        init(port: Int, timeout: Int = 10) throws {
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
            var wait = timeval(tv_sec: timeout, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { closeNow() }

        func closeNow() {
            guard !closed else { return }
            closed = true
            close(socket)
        }

        func send(_ text: String) {
            _ = text.utf8CString.withUnsafeBufferPointer { Glibc.send(socket, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
        }

        /// Sends `text` every 300 ms, 99 times, until cancelled.
        func trickle(_ text: String) -> Task<Void, any Error> {
            Task {
                for _ in 0..<99 {
                    try await Task.sleep(for: .milliseconds(300))
                    send(text)
                }
            }
        }

        /// ``readAll()`` on a thread of its own: the server in this process answers on the cooperative
        /// pool, which a blocking read must not hold.
        func received() async -> (text: String, closed: Bool) {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume(returning: self.readAll()) }
            }
        }

        /// The first bytes that arrive, read on a thread of its own; 0 or less when none did.
        func firstBytes() async -> Int {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    var buffer = [UInt8](repeating: 0, count: 512)
                    continuation.resume(returning: recv(self.socket, &buffer, buffer.count, 0))
                }
            }
        }

        /// What arrives until the server closes the connection or the read times out, and which.
        func readAll() -> (text: String, closed: Bool) {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while true {
                let count = recv(socket, &buffer, buffer.count, 0)
                if count > 0 { received += buffer[..<count]; continue }
                return (String(decoding: received, as: UTF8.self), count == 0)
            }
        }
    }

    @Test("a Content-Length over the body limit is refused with 413 before any of the body is sent")
    func oversizedContentLength() async throws {
        try await Self.withServer(HTTPConfiguration(host: "127.0.0.1", port: 0, maximumBodySize: 1_024 * 1_024)) { port in
            let connection = try RawConnection(port: port)
            connection.send(
                "POST /v1/app-store/notifications HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 10000000000\r\n\r\n")
            let (text, _) = await connection.received()
            #expect(text.hasPrefix("HTTP/1.1 413"), "\(text.prefix(200))")
            #expect(text.contains("request.bodyTooLarge"))
        }
    }

    @Test("a connection that sends nothing is closed after the idle timeout")
    func idleConnectionClosed() async throws {
        try await Self.withServer(HTTPConfiguration(host: "127.0.0.1", port: 0, idleTimeout: .seconds(1))) { port in
            let connection = try RawConnection(port: port, timeout: 30)
            let (text, closed) = await connection.received()
            #expect(text.isEmpty)
            #expect(closed, "still open after the read's own 30 s")
        }
    }

    @Test("a body trickled a byte at a time, each within the idle timeout, is cut off at the body timeout; a head sent slowly, at the idle timeout")
    func slowBodyAndHead() async throws {
        let http = HTTPConfiguration(host: "127.0.0.1", port: 0, idleTimeout: .seconds(4), bodyTimeout: .seconds(1))
        try await Self.withServer(http) { port in
            let body = try RawConnection(port: port, timeout: 30)
            body.send("POST /v1/app-store/notifications HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
            // A byte every 300 ms keeps the idle timer (4 s) from firing; 100 bytes would take 30 s.
            let trickle = body.trickle(" ")
            defer { trickle.cancel() }
            let (answer, bodyClosed) = await body.received()
            // Closed with no answer: the body never arrived in full (in full, it would be answered 400).
            #expect(bodyClosed && answer.isEmpty, "\(answer.prefix(100))")

            // A head whose bytes trickle in never becomes a request part: the idle timeout ends it.
            let head = try RawConnection(port: port, timeout: 30)
            head.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            let slowHead = head.trickle("a")
            defer { slowHead.cancel() }
            let (text, headClosed) = await head.received()
            #expect(headClosed && text.isEmpty, "\(text.prefix(100))")
        }
    }
}
