import AppStoreModels
@testable import AppStoreVerification
import EntitleTestSupport
import Foundation
import Testing
import SwiftASN1
import X509

/// Apple's own test vectors, each with the verdict Apple's library gives it.
@Suite("SignedDataVerifier: Apple's vectors")
struct SignedDataVerifierTests {
    /// How Apple's tests verify: root testCA.der, bundle com.example, app Apple ID 1234, Sandbox, offline.
    static func appleVerifier(bundleID: String = "com.example", environment: Environment = .sandbox) throws -> SignedDataVerifier {
        SignedDataVerifier(
            configuration: VerifierConfiguration(
                bundleID: bundleID, environment: environment, appAppleID: 1234,
                rootCertificates: [try VectorFiles.certificate("apple/testCA.der")]),
            now: { ReferenceTime.instant("2023-06-01T00:00:00Z") })
    }

    @Test("transactionInfo: a valid Sandbox transaction for com.example")
    func transactionInfo() async throws {
        let transaction = try await Self.appleVerifier().verifyTransaction(try VectorFiles.text("apple/mock_signed_data/transactionInfo"))
        #expect(transaction.bundleId == "com.example")
        #expect(transaction.environment == .sandbox)
        #expect(transaction.signedDate == Date(timeIntervalSince1970: 1_672_956_154))
    }

    @Test("renewalInfo: valid Sandbox renewal info")
    func renewalInfo() async throws {
        let info = try await Self.appleVerifier().verifyRenewalInfo(try VectorFiles.text("apple/mock_signed_data/renewalInfo"))
        #expect(info.environment == .sandbox)
        #expect(info.signedDate == Date(timeIntervalSince1970: 1_672_956_154))
    }

    @Test("testNotification: a valid TEST notification")
    func testNotification() async throws {
        let verified = try await Self.appleVerifier().verifyNotification(try VectorFiles.text("apple/mock_signed_data/testNotification"))
        #expect(verified.notification.notificationType == .test)
        #expect(verified.notification.data?.appAppleId == 1234)
        #expect(verified.notification.data?.bundleId == "com.example")
    }

    @Test("Apple's rejections", arguments: [
        ("apple/mock_signed_data/wrongBundleId", "notification", "com.example", Environment.sandbox, VerificationError.Code.bundleID),
        ("apple/mock_signed_data/missingX5CHeaderClaim", "notification", "com.example", .sandbox, .malformed),
        ("apple/mock_signed_data/transactionInfo", "transaction", "com.example.x", .sandbox, .bundleID),
        ("apple/mock_signed_data/testNotification", "notification", "com.example", .production, .environment),
        ("apple/mock_signed_data/legacyTransaction", "transaction", "com.example", .sandbox, .malformed),
    ])
    func rejections(file: String, kind: String, bundleID: String, environment: Environment, code: VerificationError.Code) async throws {
        let verifier = try Self.appleVerifier(bundleID: bundleID, environment: environment)
        let text = try VectorFiles.text(file)
        await #expect(throws: VerificationError(code, "")) {
            if kind == "transaction" { _ = try await verifier.verifyTransaction(text) } else { _ = try await verifier.verifyNotification(text) }
        }
    }

    @Test("strings that aren't a JWS are malformed", arguments: ["a.b.c.d", "a.b.c", "", "...", "abc", "a..c"])
    func notJWS(text: String) async throws {
        await #expect(throws: VerificationError(.malformed, "")) { _ = try await Self.appleVerifier().verifyTransaction(text) }
    }

    // MARK: The certificates Apple's tests embed

    static func validator(roots: [String]) throws -> ChainValidator {
        ChainValidator(roots: try roots.map(VectorFiles.certificate), revocation: nil)
    }

    static let effective = ReferenceTime.instant("2023-06-01T00:00:00Z")

    @Test("root_ca → intermediate_ca → leaf_cert is valid")
    func validChain() async throws {
        let chain = try await Self.validator(roots: ["apple/extracted-inline-certs/root_ca.der"]).validate(
            leaf: VectorFiles.certificate("apple/extracted-inline-certs/leaf_cert.der"),
            intermediate: VectorFiles.certificate("apple/extracted-inline-certs/intermediate_ca.der"), at: Self.effective)
        #expect(chain.validity.contains(Self.effective))
    }

    @Test("Apple's chain rejections", arguments: [
        ("leaf_cert_for_intermediate_ca_invalid_oid.der", "intermediate_ca_invalid_oid.der", "root_ca.der", VerificationError.Code.missingAppleExtension),
        ("leaf_cert_invalid_oid.der", "intermediate_ca.der", "root_ca.der", .missingAppleExtension),
        ("leaf_cert.der", "intermediate_ca.der", "real_apple_root.der", .untrustedRoot),
    ])
    func chainRejections(leaf: String, intermediate: String, root: String, code: VerificationError.Code) async throws {
        let validator = try Self.validator(roots: ["apple/extracted-inline-certs/\(root)"])
        await #expect(throws: VerificationError(code, "")) {
            _ = try await validator.validate(
                leaf: VectorFiles.certificate("apple/extracted-inline-certs/\(leaf)"),
                intermediate: VectorFiles.certificate("apple/extracted-inline-certs/\(intermediate)"), at: Self.effective)
        }
    }

    @Test("Apple's production chain is valid within its leaf's validity, and expired outside it", arguments: [
        ("2026-01-01T00:00:00Z", true), ("2025-09-20T00:00:00Z", true), ("2025-09-01T00:00:00Z", false), ("2027-11-01T00:00:00Z", false),
    ])
    func productionChain(instant: String, valid: Bool) async throws {
        let validator = ChainValidator(roots: [AppleRootCertificates.appleRootCAG3], revocation: nil)
        let leaf = try VectorFiles.certificate("apple/extracted-inline-certs/real_apple_signing_certificate.der")
        let intermediate = try VectorFiles.certificate("apple/extracted-inline-certs/real_apple_intermediate.der")
        if valid {
            _ = try await validator.validate(leaf: leaf, intermediate: intermediate, at: ReferenceTime.instant(instant))
        } else {
            await #expect(throws: VerificationError(.certificateExpired, "")) {
                _ = try await validator.validate(leaf: leaf, intermediate: intermediate, at: ReferenceTime.instant(instant))
            }
        }
    }

    // MARK: Xcode

    static func xcodeVerifier(configured: Bool) throws -> SignedDataVerifier {
        let xcodeCertificate = try Certificate(derEncoded: Array(Data(base64Encoded: Self.xcodeX5C())!))
        return SignedDataVerifier(
            configuration: VerifierConfiguration(
                bundleID: "com.example.naturelab.backyardbirds.example", environment: .xcode,
                xcodeCertificates: configured ? [xcodeCertificate] : []),
            now: { ReferenceTime.instant("2023-10-20T00:00:00Z") })
    }

    /// The certificate Xcode signed the samples with, as a developer exports it from Xcode.
    static func xcodeX5C() throws -> String {
        let header = try VectorFiles.text("apple/xcode/xcode-signed-transaction").split(separator: ".")[0]
        let json = Data(base64Encoded: String(header).padding(toLength: (header.count + 3) / 4 * 4, withPad: "=", startingAt: 0))!
        return (try JSONSerialization.jsonObject(with: json) as! [String: Any])["x5c"].flatMap { ($0 as? [String])?.first }!
    }

    @Test("Xcode data verifies against the configured StoreKit Testing certificate")
    func xcodeAccepted() async throws {
        let verifier = try Self.xcodeVerifier(configured: true)
        let transaction = try await verifier.verifyTransaction(try VectorFiles.text("apple/xcode/xcode-signed-transaction"))
        #expect(transaction.productId == "pass.premium")
        #expect(transaction.environment == .xcode)
        let info = try await verifier.verifyRenewalInfo(try VectorFiles.text("apple/xcode/xcode-signed-renewal-info"))
        #expect(info.autoRenewProductId == "pass.premium")
        let app = try await verifier.verifyAppTransaction(try VectorFiles.text("apple/xcode/xcode-signed-app-transaction"))
        #expect(app.receiptType == .xcode)
    }

    @Test("Xcode data is never accepted unverified: without a configured certificate it is refused")
    func xcodeRefused() async throws {
        let verifier = try Self.xcodeVerifier(configured: false)
        await #expect(throws: VerificationError(.untrustedRoot, "")) {
            _ = try await verifier.verifyTransaction(try VectorFiles.text("apple/xcode/xcode-signed-transaction"))
        }
    }

    // MARK: Apple-shaped

    static func shapedVerifier() throws -> SignedDataVerifier {
        SignedDataVerifier(
            configuration: VerifierConfiguration(
                bundleID: "com.example", environment: .sandbox, appAppleID: 1234,
                rootCertificates: [try VectorFiles.certificate("apple-shaped/root.der")]),
            now: { ReferenceTime.instant("2025-10-02T00:00:00Z") })
    }

    @Test("the production-shaped vectors verify, the notification with both nested parts")
    func appleShaped() async throws {
        let verifier = try Self.shapedVerifier()
        let transaction = try await verifier.verifyTransaction(try VectorFiles.text("apple-shaped/signedTransaction"))
        #expect(transaction.bundleId == "com.example")
        _ = try await verifier.verifyRenewalInfo(try VectorFiles.text("apple-shaped/signedRenewalInfo"))
        let notification = try await verifier.verifyNotification(try VectorFiles.text("apple-shaped/signedNotification"))
        #expect(notification.notification.notificationType == .didRenew)
        #expect(notification.transactionInfo?.originalTransactionId != nil)
        #expect(notification.renewalInfo?.originalTransactionId == notification.transactionInfo?.originalTransactionId)
        let summary = try await verifier.verifyNotification(try VectorFiles.text("apple-shaped/signedSummaryNotification"))
        #expect(summary.notification.summary != nil)
        #expect(verifier.cachedChainCount == 1)
    }
}
