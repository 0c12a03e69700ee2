import AppStoreModels
import Crypto
import Foundation

/// The server's word on whether a customer may have a product's introductory offer, signed as a
/// compact JWS StoreKit takes in place of its own decision (the purchase option
/// `introductoryOfferEligibility(compactJWS:)`, iOS 18.4 and later; Apple's App Store Server Library's
/// `IntroductoryOfferEligibilitySignatureCreator`): ``AppStoreRequestJWS`` with `aud`
/// `introductory-offer-eligibility` and the claims `productId`, `allowIntroductoryOffer`, and the
/// customer's `transactionId` when known.
public enum IntroductoryOfferEligibilityJWS {
    public static let audience = "introductory-offer-eligibility"

    public static func sign(
        bundleID: String, productID: String, allowIntroductoryOffer: Bool, transactionID: String?, key: P256.Signing.PrivateKey, keyID: String,
        issuerID: String, nonce: UUID, at date: Date
    ) throws -> String {
        var claims: [String: Any] = ["productId": productID, "allowIntroductoryOffer": allowIntroductoryOffer]
        if let transactionID { claims["transactionId"] = transactionID }
        return try AppStoreRequestJWS.sign(
            audience: audience, claims: claims, bundleID: bundleID, key: key, keyID: keyID, issuerID: issuerID, nonce: nonce, at: date)
    }
}
