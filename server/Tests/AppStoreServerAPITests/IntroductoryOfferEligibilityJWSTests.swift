import AppStoreServerAPI
import Crypto
import Foundation
import Testing

@Suite("IntroductoryOfferEligibilityJWS")
struct IntroductoryOfferEligibilityJWSTests {
    @Test("Apple's introductory-offer eligibility JWS: ES256 by the in-app purchase key, its audience, the product, the answer as a JSON boolean", arguments: [true, false])
    func verifies(allowed: Bool) throws {
        let jws = try IntroductoryOfferEligibilityJWS.sign(
            bundleID: "com.screentimerewards.app", productID: "com.screentimerewards.family.monthly", allowIntroductoryOffer: allowed,
            transactionID: allowed ? nil : "2000000123456789", key: PromotionalOfferSignatureTests.key, keyID: "keyId", issuerID: "issuerId",
            nonce: UUID(uuidString: "B4A89D7B-2C49-4E4B-9B5B-F0A5D3E2C1A0")!, at: Date(timeIntervalSince1970: 1_750_000_000))
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        #expect(parts.count == 3)
        let header = try #require(PromotionalOfferJWSTests.object(parts[0]))
        let claims = try #require(PromotionalOfferJWSTests.object(parts[1]))
        #expect(header["alg"] as? String == "ES256" && header["kid"] as? String == "keyId" && header["typ"] as? String == "JWT")
        #expect(claims["aud"] as? String == "introductory-offer-eligibility")
        #expect(claims["iss"] as? String == "issuerId" && claims["bid"] as? String == "com.screentimerewards.app")
        #expect((claims["iat"] as? NSNumber)?.int64Value == 1_750_000_000)
        #expect(claims["productId"] as? String == "com.screentimerewards.family.monthly")
        #expect(claims["allowIntroductoryOffer"] as? Bool == allowed)
        // A boolean, not a number: Apple's field is `true` or `false`.
        let text = String(decoding: try #require(PromotionalOfferJWSTests.base64URL(parts[1])), as: UTF8.self)
        #expect(text.contains(#""allowIntroductoryOffer":\#(allowed)"#))
        #expect(claims["transactionId"] as? String == (allowed ? nil : "2000000123456789"))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(PromotionalOfferJWSTests.base64URL(parts[2])))
        #expect(PromotionalOfferSignatureTests.key.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
    }
}
