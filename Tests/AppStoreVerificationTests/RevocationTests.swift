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
