import AppStoreServerAPI
import Crypto
import Foundation
import Testing

@Suite("PromotionalOfferSignature")
struct PromotionalOfferSignatureTests {
    /// Apple's test key from app-store-server-library's resources (`testSigningKey.p8`).
    static let key: P256.Signing.PrivateKey = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Keys/testSigningKey.p8")
        return try! P256.Signing.PrivateKey(pemRepresentation: String(contentsOf: url, encoding: .utf8))
    }()

    @Test("verifies as Apple verifies it: DER ECDSA P-256/SHA-256 over the U+2063-joined fields with the key's public half")
    func verifies() throws {
        let token = UUID(uuidString: "7E3FB20B-4CDB-47CC-936D-99D65F608138")!
        let nonce = UUID(uuidString: "B4A89D7B-2C49-4E4B-9B5B-F0A5D3E2C1A0")!
        let signed = try PromotionalOfferSignature.sign(
            bundleID: "com.epilogue.app", productID: "com.epilogue.plus.monthly", offerID: "comeback", appAccountToken: token,
            key: Self.key, keyID: "keyId", nonce: nonce, at: Date(timeIntervalSince1970: 1_698_148_900))
        #expect(signed.timestamp == 1_698_148_900_000)
        let payload = "com.epilogue.app\u{2063}keyId\u{2063}com.epilogue.plus.monthly\u{2063}comeback\u{2063}7e3fb20b-4cdb-47cc-936d-99d65f608138\u{2063}b4a89d7b-2c49-4e4b-9b5b-f0a5d3e2c1a0\u{2063}1698148900000"
        let der = try #require(Data(base64Encoded: signed.signature))
        let signature = try P256.Signing.ECDSASignature(derRepresentation: der)
        #expect(Self.key.publicKey.isValidSignature(signature, for: Data(payload.utf8)))
        // Any other field, or a token in upper case, fails.
        #expect(!Self.key.publicKey.isValidSignature(signature, for: Data(payload.replacingOccurrences(of: "comeback", with: "welcome").utf8)))
        #expect(!Self.key.publicKey.isValidSignature(signature, for: Data(payload.replacingOccurrences(of: "7e3fb20b", with: "7E3FB20B").utf8)))
    }

    @Test("without an appAccountToken the field is empty")
    func noToken() throws {
        let nonce = UUID()
        let signed = try PromotionalOfferSignature.sign(
            bundleID: "b", productID: "p", offerID: "o", appAccountToken: nil, key: Self.key, keyID: "k", nonce: nonce, at: Date(timeIntervalSince1970: 1))
        let payload = PromotionalOfferSignature.payload(bundleID: "b", keyID: "k", productID: "p", offerID: "o", appAccountToken: nil, nonce: nonce, timestamp: 1000)
        #expect(payload.contains("\u{2063}o\u{2063}\u{2063}"))
        let signature = try P256.Signing.ECDSASignature(derRepresentation: try #require(Data(base64Encoded: signed.signature)))
        #expect(Self.key.publicKey.isValidSignature(signature, for: Data(payload.utf8)))
    }
}
