import AppStoreModels
import AppStoreVerification
import EntitleTestSupport
import Foundation
import NIOConcurrencyHelpers
import Testing

/// Online revocation checks (OCSP), off by default.
@Suite("SignedDataVerifier: revocation checks")
struct RevocationTests {
    struct Unreachable: Error {}

    /// A transport that fails like a network, or answers with fixed bytes, and counts its calls.
    final class ScriptedTransport: RevocationTransport {
        let answer: [UInt8]?
        let calls = NIOLockedValueBox(0)
        init(answer: [UInt8]?) { self.answer = answer }
        func send(request: [UInt8], to uri: String) async throws -> [UInt8] {
            calls.withLockedValue { $0 += 1 }
            guard let answer else { throw Unreachable() }
            return answer
        }
    }

    static func setup(answer: [UInt8]?, now: Date = ReferenceTime.start) throws -> (TestPKI, SignedDataVerifier, ScriptedTransport) {
        var options = TestPKI.Options()
        options.ocspURI = "http://127.0.0.1:9/ocsp"
        let pki = try TestPKI(options: options)
        let transport = ScriptedTransport(answer: answer)
        let verifier = SignedDataVerifier(
            configuration: VerifierConfiguration(
                bundleID: "com.example", environment: .sandbox, rootCertificates: [pki.root],
                revocation: RevocationChecking(transport: transport)),
            now: { now })
        return (pki, verifier, transport)
    }

    /// A transport to an in-process responder for the test chain's intermediate, answering `answer`.
    final class ResponderTransport: RevocationTransport {
        let responder: OCSPResponder
        let answer: OCSPResponder.Answer
        let now: Date
        let calls = NIOLockedValueBox(0)
        init(responder: OCSPResponder, answer: OCSPResponder.Answer, now: Date) {
            (self.responder, self.answer, self.now) = (responder, answer, now)
        }
        func send(request: [UInt8], to uri: String) async throws -> [UInt8] {
            calls.withLockedValue { $0 += 1 }
            return try responder.respond(to: request, answer: answer, now: now)
        }
    }

    static func verifier(_ pki: TestPKI, transport: some RevocationTransport, freshness: TimeInterval = 3600, now: Date = ReferenceTime.start) -> SignedDataVerifier {
        SignedDataVerifier(
            configuration: VerifierConfiguration(
                bundleID: "com.example", environment: .sandbox, rootCertificates: [pki.root],
                revocation: RevocationChecking(transport: transport, freshness: freshness)),
            now: { now })
    }

    static func pkiWithResponder() throws -> TestPKI {
        var options = TestPKI.Options()
        options.ocspURI = "http://127.0.0.1:9/ocsp"
        return try TestPKI(options: options)
    }

    @Test("a responder that answers good, signed by the issuer: the data verifies, and the answer is reused while fresh")
    func good() async throws {
        let pki = try Self.pkiWithResponder()
        let transport = ResponderTransport(
            responder: OCSPResponder(issuer: pki.intermediate, issuerKey: pki.intermediateKey), answer: .good, now: ReferenceTime.start)
        let verifier = Self.verifier(pki, transport: transport)
        let verified = try await verifier.verifyTransaction(pki.sign(Self.transaction))
        #expect(verified.transactionId == Self.transaction.transactionId)
        _ = try await verifier.verifyTransaction(pki.sign(Self.transaction))
        #expect(transport.calls.withLockedValue { $0 } == 1)
    }

    @Test("revoked, unknown, or good but signed by another key: a final rejection", arguments: ["revoked", "unknown", "forged"])
    func refused(_ case: String) async throws {
        let pki = try Self.pkiWithResponder()
        let other = try TestPKI()
        let responder = `case` == "forged"
            ? OCSPResponder(issuer: pki.intermediate, issuerKey: other.intermediateKey)
            : OCSPResponder(issuer: pki.intermediate, issuerKey: pki.intermediateKey)
        let answer: OCSPResponder.Answer = switch `case` {
        case "revoked": .revoked(at: ReferenceTime.start.addingTimeInterval(-86_400))
        case "unknown": .unknown
        default: .good
        }
        let verifier = Self.verifier(pki, transport: ResponderTransport(responder: responder, answer: answer, now: ReferenceTime.start))
        await #expect {
            _ = try await verifier.verifyTransaction(pki.sign(Self.transaction))
        } throws: { error in
            let error = error as? VerificationError
            return error?.code == .certificateRevoked && error?.isRetryable == false
        }
    }

    @Test("a responder that answers tryLater or internalError: retryable", arguments: [OCSPResponder.Answer.tryLater, .internalError])
    func busy(_ answer: OCSPResponder.Answer) async throws {
        let pki = try Self.pkiWithResponder()
        let transport = ResponderTransport(
            responder: OCSPResponder(issuer: pki.intermediate, issuerKey: pki.intermediateKey), answer: answer, now: ReferenceTime.start)
        await #expect {
            _ = try await Self.verifier(pki, transport: transport).verifyTransaction(pki.sign(Self.transaction))
        } throws: { error in
            let error = error as? VerificationError
            return error?.code == .revocationCheckUnavailable && error?.isRetryable == true
        }
    }

    @Test("a good answer that has gone stale (produced long before the check) is refused")
    func stale() async throws {
        let pki = try Self.pkiWithResponder()
        let transport = ResponderTransport(
            responder: OCSPResponder(issuer: pki.intermediate, issuerKey: pki.intermediateKey), answer: .good,
            now: ReferenceTime.start.addingTimeInterval(-3 * 86_400))
        await #expect(throws: VerificationError.self) {
            _ = try await Self.verifier(pki, transport: transport).verifyTransaction(pki.sign(Self.transaction))
        }
    }

    static let transaction = AppleFacts().subscription("com.example.monthly", original: "1", purchase: ReferenceTime.start, expires: ReferenceTime.day(30))

    @Test("an unreachable OCSP responder is a retryable failure")
    func unreachable() async throws {
        let (pki, verifier, transport) = try Self.setup(answer: nil)
        await #expect {
            _ = try await verifier.verifyTransaction(pki.sign(Self.transaction))
        } throws: { error in
            let error = error as? VerificationError
            return error?.code == .revocationCheckUnavailable && error?.isRetryable == true
        }
        #expect(transport.calls.withLockedValue { $0 } >= 1)
    }

    @Test("a responder answer that doesn't confirm the certificate is a final rejection, not retryable")
    func notConfirmed() async throws {
        let (pki, verifier, _) = try Self.setup(answer: [0x30, 0x03, 0x0A, 0x01, 0x06])
        await #expect {
            _ = try await verifier.verifyTransaction(pki.sign(Self.transaction))
        } throws: { error in
            let error = error as? VerificationError
            return error?.code == .certificateRevoked && error?.isRetryable == false
        }
    }

    @Test("without revocation checking no responder is contacted and the chain is validated at signedDate")
    func offlineByDefault() async throws {
        var options = TestPKI.Options()
        options.ocspURI = "http://127.0.0.1:9/ocsp"
        options.leafValidity = -86_400 ... 86_400
        let pki = try TestPKI(options: options)
        // Long after the leaf expired, data it signed while valid still verifies offline.
        let verifier = SignedDataVerifier(
            configuration: VerifierConfiguration(bundleID: "com.example", environment: .sandbox, rootCertificates: [pki.root]),
            now: { ReferenceTime.day(400) })
        _ = try await verifier.verifyTransaction(pki.sign(Self.transaction))
    }
}
