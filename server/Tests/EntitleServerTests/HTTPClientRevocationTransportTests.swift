import AppStoreModels
import AppStoreVerification
import EntitleServer
import EntitleTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import NIOCore
import Testing

/// The server's OCSP transport against a responder on loopback HTTP.
@Suite("HTTPClientRevocationTransport")
struct HTTPClientRevocationTransportTests {
    typealias Failure = HTTPClientRevocationTransport.Failure

    /// The transport of the tests that aren't about its timeout: the suite runs beside hundreds of others
    /// on two cores, where a loopback exchange has been seen to wait more than the default 5 s.
    static func transport(maximumResponseBytes: Int = 64 * 1024) -> HTTPClientRevocationTransport {
        HTTPClientRevocationTransport(timeout: .seconds(120), maximumResponseBytes: maximumResponseBytes)
    }

    static let transaction = AppleFacts().subscription("com.example.monthly", original: "1", purchase: ReferenceTime.start, expires: ReferenceTime.day(30))

    /// What the responder at `/ocsp` answers with: the certificate authority it answers for (set once the
    /// chain naming the responder's URL exists) and the answer.
    final class Responding: Sendable {
        let responder = NIOLockedValueBox<OCSPResponder?>(nil)
        let answer = NIOLockedValueBox(OCSPResponder.Answer.good)
        let calls = NIOLockedValueBox(0)
        /// The last request's body and content type, and the answer sent to it.
        let last = NIOLockedValueBox<(request: [UInt8], contentType: String?, answer: [UInt8])?>(nil)

        init() {}

        /// Answering for `pki`'s certificate authority.
        init(for pki: TestPKI) {
            responder.withLockedValue { $0 = OCSPResponder(issuer: pki.intermediate, issuerKey: pki.intermediateKey) }
        }
    }

    /// Runs `body` with the base URL of a server whose `/ocsp` answers as `responding` says, and whose
    /// other routes misbehave: `/status/{n}` answers status n, `/large` 100 KB, `/silent` nothing for
    /// 2 s, `/stalled` a head and one byte, then nothing for 2 s.
    static func withServer(_ responding: Responding = Responding(), _ body: @Sendable (String) async throws -> Void) async throws {
        let router = Router()
        router.post("ocsp") { request, _ -> Response in
            responding.calls.withLockedValue { $0 += 1 }
            let responder = try #require(responding.responder.withLockedValue { $0 })
            let body = Array(buffer: try await request.body.collect(upTo: 64 * 1024))
            let der = try responder.respond(to: body, answer: responding.answer.withLockedValue { $0 }, now: ReferenceTime.start)
            responding.last.withLockedValue { $0 = (body, request.headers[.contentType], der) }
            return Response(status: .ok, headers: [.contentType: "application/ocsp-response"], body: .init(byteBuffer: ByteBuffer(bytes: der)))
        }
        router.post("status/:status") { _, context -> Response in
            Response(status: HTTPResponse.Status(code: try context.parameters.require("status", as: Int.self)))
        }
        router.post("large") { _, _ -> Response in
            Response(status: .ok, body: .init(byteBuffer: ByteBuffer(repeating: 0x30, count: 100_000)))
        }
        router.post("silent") { _, _ -> Response in
            try await Task.sleep(for: .seconds(2))
            return Response(status: .ok)
        }
        router.post("stalled") { _, _ -> Response in
            Response(status: .ok, body: ResponseBody { writer in
                try await writer.write(ByteBuffer(bytes: [0x30]))
                try await Task.sleep(for: .seconds(2))
                try await writer.finish(nil)
            })
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await body("http://127.0.0.1:\(try #require(client.port))")
        }
    }

    /// An OCSP request (RFC 6960 4.1.1) for serial number 1, its hashes zeros: what the responder echoes.
    static let request: [UInt8] = {
        let certID: [UInt8] = [0x30, 0x3A, 0x30, 0x09, 0x06, 0x05, 0x2B, 0x0E, 0x03, 0x02, 0x1A, 0x05, 0x00]
            + [0x04, 0x14] + Array(repeating: 0, count: 20) + [0x04, 0x14] + Array(repeating: 0, count: 20) + [0x02, 0x01, 0x01]
        return [0x30, 0x42, 0x30, 0x40, 0x30, 0x3E, 0x30, 0x3C] + certID
    }()

    static func verifier(_ pki: TestPKI) -> SignedDataVerifier {
        SignedDataVerifier(
            configuration: VerifierConfiguration(
                bundleID: "com.example", environment: .sandbox, rootCertificates: [pki.root],
                revocation: RevocationChecking(transport: Self.transport(), freshness: 0)),
            now: { ReferenceTime.start })
    }

    @Test("over HTTP, a chain the responder calls good verifies, revoked is refused, tryLater is retryable")
    func verifiesThroughTheResponder() async throws {
        let responding = Responding()
        try await Self.withServer(responding) { base in
            var options = TestPKI.Options()
            options.ocspURI = "\(base)/ocsp"
            let pki = try TestPKI(options: options)
            responding.responder.withLockedValue { $0 = OCSPResponder(issuer: pki.intermediate, issuerKey: pki.intermediateKey) }
            let verifier = Self.verifier(pki)

            let verified = try await verifier.verifyTransaction(pki.sign(Self.transaction))
            #expect(verified.transactionId == Self.transaction.transactionId)
            #expect(responding.calls.withLockedValue { $0 } >= 1)

            responding.answer.withLockedValue { $0 = .revoked(at: ReferenceTime.start.addingTimeInterval(-3600)) }
            await #expect {
                _ = try await verifier.verifyTransaction(pki.sign(Self.transaction))
            } throws: { error in
                (error as? VerificationError)?.code == .certificateRevoked
            }

            responding.answer.withLockedValue { $0 = .tryLater }
            await #expect {
                _ = try await verifier.verifyTransaction(pki.sign(Self.transaction))
            } throws: { error in
                let error = error as? VerificationError
                return error?.code == .revocationCheckUnavailable && error?.isRetryable == true
            }
        }
    }

    @Test("the responder's answer comes back byte for byte, sent as an OCSP request")
    func answerBytes() async throws {
        let responding = try Responding(for: TestPKI())
        let request = Self.request
        try await Self.withServer(responding) { base in
            let answer = try await Self.transport().send(request: request, to: "\(base)/ocsp")
            let last = try #require(responding.last.withLockedValue { $0 })
            #expect(last.request == request)
            #expect(last.contentType == "application/ocsp-request")
            #expect(answer == last.answer)
        }
    }

    @Test("an answer other than 200 is a failure naming the status", arguments: [204, 404, 500, 503])
    func status(_ status: Int) async throws {
        try await Self.withServer { base in
            await #expect {
                _ = try await Self.transport().send(request: [0x30, 0x00], to: "\(base)/status/\(status)")
            } throws: { ($0 as? Failure)?.reason == .status(status) }
        }
    }

    @Test("an answer larger than the limit is a failure")
    func tooLarge() async throws {
        try await Self.withServer { base in
            await #expect {
                _ = try await Self.transport().send(request: [0x30, 0x00], to: "\(base)/large")
            } throws: { ($0 as? Failure)?.reason == .tooLarge }
            let roomier = Self.transport(maximumResponseBytes: 100_000)
            let large = try await roomier.send(request: [0x30, 0x00], to: "\(base)/large")
            #expect(large.count == 100_000)
        }
    }

    @Test("no head, or a head and then no body, within the timeout is a failure", arguments: ["silent", "stalled"])
    func timedOut(_ route: String) async throws {
        try await Self.withServer { base in
            let transport = HTTPClientRevocationTransport(timeout: .milliseconds(200))
            await #expect {
                _ = try await transport.send(request: [0x30, 0x00], to: "\(base)/\(route)")
            } throws: { ($0 as? Failure)?.reason == .timedOut }
        }
    }

    @Test("a responder nobody listens for, or a URL that isn't one, fails", arguments: ["http://127.0.0.1:9/ocsp", "not a url", "ftp://127.0.0.1/ocsp"])
    func unreachable(_ uri: String) async throws {
        // AsyncHTTPClient retries a refused connection until the timeout; the last refusal is the error.
        await #expect(throws: (any Error).self) {
            _ = try await HTTPClientRevocationTransport(timeout: .seconds(1)).send(request: [0x30, 0x00], to: uri)
        }
    }

    @Test("checks cancelled at every moment around their answer each end, answered or with an error, and the next is answered")
    func cancelled() async throws {
        let responding = try Responding(for: TestPKI())
        let request = Self.request
        try await Self.withServer(responding) { base in
            let transport = Self.transport()
            let silent = Task { try await transport.send(request: request, to: "\(base)/silent") }
            try await Task.sleep(for: .milliseconds(100))
            silent.cancel()
            await #expect(throws: (any Error).self) { try await silent.value }

            // Four callers at once, 100 checks each, cancelled after a number of yields that varies from
            // check to check: before the request leaves, while the answer arrives, after.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for caller in 0..<4 {
                    group.addTask {
                        for round in 0..<100 {
                            let check = Task { try await transport.send(request: request, to: "\(base)/ocsp") }
                            for _ in 0..<((round + caller) % 40) { await Task.yield() }
                            check.cancel()
                            if case .success(let answer) = await check.result { #expect(answer.first == 0x30) }
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await transport.send(request: request, to: "\(base)/ocsp").first == 0x30)
        }
    }
}
