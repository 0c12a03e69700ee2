import AppStoreModels
import Crypto
import Foundation

/// A promotional offer signed as a compact JWS, the form current StoreKit takes
/// (`Product.SubscriptionOffer` purchase option `promotionalOffer(_:compactJWS:)`, Apple's "Generating
/// JWS to sign App Store requests"): ``AppStoreRequestJWS`` with `aud` `promotional-offer` and the claims
/// `productId`, `offerIdentifier`, and the customer's `transactionId` when known.
public enum PromotionalOfferJWS {
    public static let audience = "promotional-offer"

    /// The compact JWS for the offer `offerID` of `productID`.
    public static func sign(
        bundleID: String, productID: String, offerID: String, transactionID: String?, key: P256.Signing.PrivateKey, keyID: String,
        issuerID: String, nonce: UUID, at date: Date
    ) throws -> String {
        var claims: [String: Any] = ["productId": productID, "offerIdentifier": offerID]
        if let transactionID { claims["transactionId"] = transactionID }
        return try AppStoreRequestJWS.sign(
            audience: audience, claims: claims, bundleID: bundleID, key: key, keyID: keyID, issuerID: issuerID, nonce: nonce, at: date)
    }
}
