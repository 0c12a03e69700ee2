import AppStoreModels
import AppStoreVerification
import Crypto
import EntitleTestSupport
import Foundation
import Testing
import X509

/// Attacks on the verifier, each built by an in-code PKI signing at test time.
@Suite("SignedDataVerifier: adversarial")
struct AdversarialTests {
    static let signedAt = ReferenceTime.start
    static let pki = try! TestPKI()

    static func transaction(bundleID: String = "com.example", environment: Environment = .sandbox, signed: Date = signedAt) -> JWSTransactionDecodedPayload {
        AppleFacts(bundleID: bundleID, environment: environment).subscription(
            "com.example.monthly", original: "1000", purchase: signed, expires: signed + 30 * 86_400, signed: signed)
    }

    static func verifier(roots: [Certificate] = [pki.root], environment: Environment = .sandbox, appAppleID: Int64? = 1234, maximumInputSize: Int = 512 * 1024) -> SignedDataVerifier {
        SignedDataVerifier(
            configuration: VerifierConfiguration(
                bundleID: "com.example", environment: environment, appAppleID: appAppleID, rootCertificates: roots,
                maximumInputSize: maximumInputSize),
            now: { signedAt })
    }

    static func expect(_ code: VerificationError.Code, verifier: SignedDataVerifier = verifier(), _ jws: String) async {
        await #expect(throws: VerificationError(code, "")) { _ = try await verifier.verifyTransaction(jws) }
    }

    @Test("a correctly signed transaction verifies; the chain is cached")
    func baseline() async throws {
        let verifier = Self.verifier()
        let decoded = try await verifier.verifyTransaction(Self.pki.sign(Self.transaction()))
        #expect(decoded == Self.transaction())
        #expect(verifier.cachedChainCount == 1)
        _ = try await verifier.verifyTransaction(Self.pki.sign(Self.transaction()))
        #expect(verifier.cachedChainCount == 1)
    }

    @Test("a tampered payload fails the signature, cold and warm")
    func tamperedPayload() async throws {
        let verifier = Self.verifier()
        let jws = Self.pki.sign(Self.transaction())
        let parts = jws.split(separator: ".")
        var forged = Self.transaction()
        forged.productId = "com.example.lifetime"
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let tampered = "\(parts[0]).\(TestPKI.base64URL(try encoder.encode(forged))).\(parts[2])"
        await Self.expect(.invalidSignature, verifier: verifier, tampered)
        _ = try await verifier.verifyTransaction(jws)
        await Self.expect(.invalidSignature, verifier: verifier, tampered)
    }

    @Test("alg none and HS256 are refused", arguments: ["none", "HS256", "ES384", "RS256"])
    func algorithms(alg: String) async {
        let jws = Self.pki.sign(payload: try! JSONEncoder().encode(["bundleId": "com.example"]), header: ["alg": alg, "x5c": Self.pki.x5c])
        await Self.expect(.unsupportedAlgorithm, jws)
    }

    @Test("a header without alg is refused")
    func missingAlgorithm() async {
        await Self.expect(.unsupportedAlgorithm, Self.pki.sign(payload: Data("{}".utf8), header: ["x5c": Self.pki.x5c]))
    }

    @Test("a DER-encoded signature is refused: ES256 is 64 raw bytes")
    func derSignature() async throws {
        let jws = Self.pki.sign(Self.transaction())
        let parts = jws.split(separator: ".")
        let input = "\(parts[0]).\(parts[1])"
        let der = try Self.pki.leafKey.signature(for: Data(input.utf8)).derRepresentation
        await Self.expect(.invalidSignature, "\(input).\(TestPKI.base64URL(der))")
    }

    @Test("a signature by another key is refused")
    func otherKey() async {
        await Self.expect(.invalidSignature, Self.pki.sign(payload: try! JSONEncoder().encode(["a": 1]), key: TestPKI.makeSigningKey()))
    }

    /// `r ‖ s` of a signature, replaced by `replace` (its 64 bytes in, 64 out).
    static func resigned(_ jws: String, _ replace: ([UInt8]) -> [UInt8]) throws -> String {
        let parts = jws.split(separator: ".")
        let signature = try #require(Base64URL.decode(parts[2].utf8))
        return "\(parts[0]).\(parts[1]).\(TestPKI.base64URL(Data(replace(signature))))"
    }

    /// P-256's order n, big-endian.
    static let order: [UInt8] = Array(Data(base64Encoded: "/////wAAAAD//////////7zm+q2nF56E87nKwvxjJVE=")!)

    @Test(
        "warm, a signature by another key, or with r or s outside 1…n − 1, is refused",
        arguments: ["other key", "r = 0", "s = 0", "r = n", "s = n", "s all ones"])
    func warmSignatures(change: String) async throws {
        let verifier = Self.verifier()
        let jws = Self.pki.sign(Self.transaction())
        _ = try await verifier.verifyTransaction(jws)
        #expect(verifier.cachedChainCount == 1)
        let parts = jws.split(separator: ".")
        let altered: String
        switch change {
        case "other key":
            let signature = try TestPKI.makeSigningKey().signature(for: Data("\(parts[0]).\(parts[1])".utf8)).rawRepresentation
            altered = "\(parts[0]).\(parts[1]).\(TestPKI.base64URL(signature))"
        case "r = 0": altered = try Self.resigned(jws) { [UInt8](repeating: 0, count: 32) + $0.suffix(32) }
        case "s = 0": altered = try Self.resigned(jws) { $0.prefix(32) + [UInt8](repeating: 0, count: 32) }
        case "r = n": altered = try Self.resigned(jws) { Self.order + $0.suffix(32) }
        case "s = n": altered = try Self.resigned(jws) { $0.prefix(32) + Self.order }
        default: altered = try Self.resigned(jws) { $0.prefix(32) + [UInt8](repeating: 0xFF, count: 32) }
        }
        await Self.expect(.invalidSignature, verifier: verifier, altered)
        _ = try await verifier.verifyTransaction(jws)
    }

    @Test("a signature with s replaced by n − s verifies cold and warm, as BoringSSL's ECDSA has it")
    func highS() async throws {
        let jws = Self.pki.sign(Self.transaction())
        // n − s, big-endian, by subtracting byte by byte.
        let flipped = try Self.resigned(jws) { signature in
            var result = [UInt8](repeating: 0, count: 32)
            var borrow = 0
            for index in (0..<32).reversed() {
                let difference = Int(Self.order[index]) - Int(signature[32 + index]) - borrow
                result[index] = UInt8((difference + 256) % 256)
                borrow = difference < 0 ? 1 : 0
            }
            return signature.prefix(32) + result
        }
        #expect(try await Self.verifier().verifyTransaction(flipped) == Self.transaction())
        let verifier = Self.verifier()
        _ = try await verifier.verifyTransaction(jws)
        #expect(try await verifier.verifyTransaction(flipped) == Self.transaction())
    }

    @Test("a root with the same names but another key is not trusted")
    func impostorRoot() async throws {
        var options = TestPKI.Options()
        options.rootName = "Entitle Test Root CA"
        let impostor = try TestPKI(options: options)
        #expect(impostor.root.subject == Self.pki.root.subject)
        await Self.expect(.untrustedRoot, impostor.sign(Self.transaction()))
    }

    @Test("x5c[2] is never trusted, whatever it says")
    func thirdCertificateIgnored() async throws {
        let attacker = try TestPKI()
        // The attacker's chain, ending in the attacker's root, with our trusted root in third place.
        let header: [String: any Sendable] = ["alg": "ES256", "x5c": Array(attacker.x5c.prefix(2)) + [TestPKI.base64DER(Self.pki.root)]]
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        await Self.expect(.untrustedRoot, attacker.sign(payload: try encoder.encode(Self.transaction()), header: header))
    }

    @Test("a chain without Apple's marker OIDs is refused", arguments: [(false, true), (true, false)])
    func missingOIDs(intermediateOID: Bool, leafOID: Bool) async throws {
        var options = TestPKI.Options()
        options.intermediateHasAppleOID = intermediateOID
        options.leafHasAppleOID = leafOID
        let pki = try TestPKI(options: options)
        await Self.expect(.missingAppleExtension, verifier: Self.verifier(roots: [pki.root]), pki.sign(Self.transaction()))
    }

    @Test("an intermediate that is not a CA is refused")
    func nonCAIntermediate() async throws {
        var options = TestPKI.Options()
        options.intermediateIsCA = false
        let pki = try TestPKI(options: options)
        await Self.expect(.invalidChain, verifier: Self.verifier(roots: [pki.root]), pki.sign(Self.transaction()))
    }

    @Test("a payload signed after the leaf expired is refused, even with the chain cached")
    func expiredLeaf() async throws {
        var options = TestPKI.Options()
        options.leafValidity = -86_400 ... 86_400
        let pki = try TestPKI(options: options)
        let verifier = Self.verifier(roots: [pki.root])
        _ = try await verifier.verifyTransaction(pki.sign(Self.transaction()))
        await Self.expect(.certificateExpired, verifier: verifier, pki.sign(Self.transaction(signed: Self.signedAt + 2 * 86_400)))
        await Self.expect(.certificateExpired, verifier: Self.verifier(roots: [pki.root]), pki.sign(Self.transaction(signed: Self.signedAt - 2 * 86_400)))
    }

    @Test("reordered, short, long and empty chains are refused", arguments: [
        ([1, 0, 2], VerificationError.Code.invalidChain), ([0, 1], .chainLength), ([0], .chainLength), ([], .chainLength),
        ([0, 1, 2, 2], .chainLength), ([0, 0, 2], .invalidChain),
    ])
    func chainShapes(order: [Int], code: VerificationError.Code) async throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let header: [String: any Sendable] = ["alg": "ES256", "x5c": order.map { Self.pki.x5c[$0] }]
        await Self.expect(code, Self.pki.sign(payload: try encoder.encode(Self.transaction()), header: header))
    }

    @Test("x5c entries that aren't certificates are malformed", arguments: ["not base64!", "AAAA", ""])
    func badCertificates(entry: String) async {
        let header: [String: any Sendable] = ["alg": "ES256", "x5c": [entry] + Self.pki.x5c.dropFirst()]
        await Self.expect(.malformed, Self.pki.sign(payload: Data("{}".utf8), header: header))
    }

    @Test("wrong bundle, environment and app Apple ID are refused")
    func payloadChecks() async throws {
        await Self.expect(.bundleID, Self.pki.sign(Self.transaction(bundleID: "com.other")))
        await Self.expect(.environment, Self.pki.sign(Self.transaction(environment: .production)))
        let notification = ResponseBodyV2DecodedPayload(
            notificationType: .test, notificationUUID: UUID().uuidString,
            data: NotificationData(environment: .production, appAppleId: 9999, bundleId: "com.example"), version: "2.0", signedDate: Self.signedAt)
        let production = Self.verifier(environment: .production)
        await #expect(throws: VerificationError(.appAppleID, "")) { _ = try await production.verifyNotification(Self.pki.sign(notification)) }
        let unconfigured = Self.verifier(environment: .production, appAppleID: nil)
        await #expect(throws: VerificationError(.appAppleID, "")) { _ = try await unconfigured.verifyNotification(Self.pki.sign(notification)) }
    }

    @Test("a notification's nested transaction is verified too")
    func nestedVerification() async throws {
        let forger = try TestPKI()
        let notification = ResponseBodyV2DecodedPayload(
            notificationType: .didRenew, notificationUUID: UUID().uuidString,
            data: NotificationData(environment: .sandbox, appAppleId: 1234, bundleId: "com.example", signedTransactionInfo: forger.sign(Self.transaction())),
            version: "2.0", signedDate: Self.signedAt)
        await #expect(throws: VerificationError(.untrustedRoot, "")) { _ = try await Self.verifier().verifyNotification(Self.pki.sign(notification)) }
        var honest = notification
        honest.data?.signedTransactionInfo = Self.pki.sign(Self.transaction())
        let verified = try await Self.verifier().verifyNotification(Self.pki.sign(honest))
        #expect(verified.transactionInfo == Self.transaction())
    }

    @Test("bad base64 and bad JSON are malformed", arguments: ["header", "payload", "signature", "json"])
    func malformed(part: String) async throws {
        let jws = Self.pki.sign(Self.transaction())
        var parts = jws.split(separator: ".").map(String.init)
        switch part {
        case "header": parts[0] = "%%%"
        case "payload": parts[1] = "ab$c"
        case "signature": parts[2] = "!!"
        default:
            await Self.expect(.malformed, Self.pki.sign(payload: Data("{\"bundleId\": ".utf8)))
            return
        }
        await Self.expect(.malformed, parts.joined(separator: "."))
    }

    @Test("a multi-megabyte input is refused before decoding")
    func tooLarge() async {
        let huge = String(repeating: "A", count: 3 * 1024 * 1024)
        await Self.expect(.payloadTooLarge, "\(huge).\(huge).\(huge)")
        await Self.expect(.payloadTooLarge, verifier: Self.verifier(maximumInputSize: 1024), Self.pki.sign(Self.transaction()))
    }

    @Test("many tasks verify concurrently and agree")
    func concurrent() async throws {
        let verifier = Self.verifier()
        let jws = Self.pki.sign(Self.transaction())
        let results = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<64 { group.addTask { try await verifier.verifyTransaction(jws).transactionId } }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(results.count == 64)
        #expect(Set(results) == [Self.transaction().transactionId])
    }

    @Test("every error code is stable and only a failed revocation check is retryable")
    func codes() {
        #expect(VerificationError.Code.allCases.map(\.rawValue).allSatisfy { $0.hasPrefix("verification.") })
        #expect(VerificationError.Code.allCases.filter(\.isRetryable) == [.revocationCheckUnavailable])
    }
}
