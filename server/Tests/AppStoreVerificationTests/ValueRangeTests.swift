import AppStoreModels
import AppStoreVerification
import EntitleTestSupport
import Foundation
import Testing

/// Values outside ``AppStoreValueRanges`` are refused before anything computes with them, however the
/// payload was signed: a forged one never reaches the certificate check (whose library traps on a year
/// past 9999), a trusted one never reaches the ledger.
@Suite("SignedDataVerifier: value ranges")
struct ValueRangeTests {
    static let pki = AdversarialTests.pki

    /// `transaction` as JSON with `field` set to the raw JSON number `value`.
    static func payload(_ transaction: JWSTransactionDecodedPayload, _ field: String, _ value: String) throws -> Data {
        let encoder = AppStoreJSON.encoder()
        var object = try #require(try JSONSerialization.jsonObject(with: encoder.encode(transaction)) as? [String: Any])
        object[field] = "@@VALUE@@"
        let text = try #require(String(data: JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), encoding: .utf8))
        return Data(text.replacingOccurrences(of: "\"@@VALUE@@\"", with: value).utf8)
    }

    @Test(
        "a notification signed by nobody, dated past year 9999 or before year 0, is refused as out of range, not a crash",
        arguments: ["253402300800000", "253402300799999", "-8640000000000000", "1e308", "-62167219200001"])
    func forgedNotification(signedDate: String) async throws {
        // An attacker's own root, three times: no configured root, no Apple OID, no valid signature.
        let attacker = try TestPKI(options: TestPKI.Options())
        let root = TestPKI.base64DER(attacker.root)
        let body = #"{"notificationType":"SUBSCRIBED","notificationUUID":"u","version":"2.0","signedDate":\#(signedDate),"data":{"bundleId":"com.example","environment":"Sandbox","appAppleId":1234}}"#
        let jws = attacker.sign(payload: Data(body.utf8), header: ["alg": "ES256", "x5c": [root, root, root]])
        await #expect(throws: VerificationError(.valueOutOfRange, "")) {
            _ = try await AdversarialTests.verifier().verifyNotification(jws)
        }
    }

    @Test(
        "a transaction the trusted root signed with an instant, price or count out of range is refused",
        arguments: [
            ("expiresDate", "1e308"), ("expiresDate", "-1e308"), ("purchaseDate", "1e308"), ("revocationDate", "-1e308"),
            ("originalPurchaseDate", "7258118400001"), ("signedDate", "253402300800000"), ("price", "9223372036854775807"),
            ("price", "4611686018427387904"), ("price", "-1"), ("quantity", "-5"), ("revocationPercentage", "100001"),
        ])
    func trustedOutOfRange(field: String, value: String) async throws {
        let jws = Self.pki.sign(payload: try Self.payload(AdversarialTests.transaction(), field, value))
        let verifier = AdversarialTests.verifier()
        await #expect(throws: VerificationError(.valueOutOfRange, "")) { _ = try await verifier.verifyTransaction(jws) }
        // Warm: the chain cached by a good payload, the same answer.
        _ = try await verifier.verifyTransaction(Self.pki.sign(AdversarialTests.transaction()))
        await #expect(throws: VerificationError(.valueOutOfRange, "")) { _ = try await verifier.verifyTransaction(jws) }
    }

    @Test("values at the ranges' edges verify")
    func edges() async throws {
        var transaction = AdversarialTests.transaction()
        transaction.expiresDate = AppStoreValueRanges.instants.upperBound
        transaction.price = AppStoreValueRanges.amounts.upperBound
        transaction.originalPurchaseDate = AppStoreValueRanges.instants.lowerBound
        let decoded = try await AdversarialTests.verifier().verifyTransaction(Self.pki.sign(transaction))
        #expect(decoded == transaction)
    }

    @Test("renewal info with a renewal date or price out of range is refused", arguments: [("renewalDate", "1e308"), ("renewalPrice", "-7")])
    func renewalInfo(field: String, value: String) async throws {
        let info = JWSRenewalInfoDecodedPayload(
            autoRenewProductId: "com.example.monthly", autoRenewStatus: .on, environment: .sandbox, originalTransactionId: "1000",
            productId: "com.example.monthly", signedDate: AdversarialTests.signedAt)
        let encoder = AppStoreJSON.encoder()
        var object = try #require(try JSONSerialization.jsonObject(with: encoder.encode(info)) as? [String: Any])
        object[field] = "@@VALUE@@"
        let text = try #require(String(data: JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), encoding: .utf8))
        let jws = Self.pki.sign(payload: Data(text.replacingOccurrences(of: "\"@@VALUE@@\"", with: value).utf8))
        await #expect(throws: VerificationError(.valueOutOfRange, "")) { _ = try await AdversarialTests.verifier().verifyRenewalInfo(jws) }
    }
}
