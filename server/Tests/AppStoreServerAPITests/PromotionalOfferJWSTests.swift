import AppStoreServerAPI
import Crypto
import Foundation
import Testing

@Suite("PromotionalOfferJWS")
struct PromotionalOfferJWSTests {
    @Test("a compact JWS Apple verifies: ES256 over header.claims with the key's public half, kid in the header, Apple's claims")
    func verifies() throws {
        let nonce = UUID(uuidString: "B4A89D7B-2C49-4E4B-9B5B-F0A5D3E2C1A0")!
        let jws = try PromotionalOfferJWS.sign(
            bundleID: "com.epilogue.app", productID: "com.epilogue.plus.monthly", offerID: "comeback", transactionID: "2000000123456789",
            key: PromotionalOfferSignatureTests.key, keyID: "keyId", issuerID: "issuerId", nonce: nonce, at: Date(timeIntervalSince1970: 1_698_148_900))
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        #expect(parts.count == 3)
        let header = try #require(Self.object(parts[0]))
        let claims = try #require(Self.object(parts[1]))
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == "keyId")
        #expect(claims["aud"] as? String == "promotional-offer")
        #expect(claims["iss"] as? String == "issuerId")
        #expect(claims["bid"] as? String == "com.epilogue.app")
        #expect((claims["iat"] as? NSNumber)?.int64Value == 1_698_148_900)
        #expect(claims["nonce"] as? String == "b4a89d7b-2c49-4e4b-9b5b-f0a5d3e2c1a0")
        #expect(claims["productId"] as? String == "com.epilogue.plus.monthly")
        #expect(claims["offerIdentifier"] as? String == "comeback")
        #expect(claims["transactionId"] as? String == "2000000123456789")
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Self.base64URL(parts[2])))
        let publicKey = PromotionalOfferSignatureTests.key.publicKey
        #expect(publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
        // A changed claim no longer verifies.
        let forged = Data(#"{"offerIdentifier":"free-forever"}"#.utf8).base64EncodedString()
        #expect(!publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(forged)".utf8)))
    }

    @Test("without a transaction ID the claim is absent")
    func noTransaction() throws {
        let jws = try PromotionalOfferJWS.sign(
            bundleID: "b", productID: "p", offerID: "o", transactionID: nil, key: PromotionalOfferSignatureTests.key, keyID: "k", issuerID: "i",
            nonce: UUID(), at: Date(timeIntervalSince1970: 1))
        let claims = try #require(Self.object(String(jws.split(separator: ".")[1])))
        #expect(claims["transactionId"] == nil)
    }

    static func object(_ part: String) -> [String: Any]? {
        base64URL(part).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    static func base64URL(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
