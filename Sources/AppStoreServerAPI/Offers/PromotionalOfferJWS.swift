import AppStoreModels
import Crypto
import Foundation

/// A promotional offer signed as a compact JWS, the form current StoreKit takes
/// (`Product.SubscriptionOffer` purchase option `promotionalOffer(_:compactJWS:)`, Apple's "Generating
/// JWS to sign App Store requests"): header `alg` ES256, `kid`, `typ` JWT; claims `iss` (the issuer
/// ID), `iat`, `aud` `promotional-offer`, `bid`, `nonce`, `productId`, `offerIdentifier`, and the
/// customer's `transactionId` when known. Signed with the same in-app purchase key as the App Store
/// Server API.
public enum PromotionalOfferJWS {
    public static let audience = "promotional-offer"

    /// The compact JWS for the offer `offerID` of `productID`.
    public static func sign(
        bundleID: String, productID: String, offerID: String, transactionID: String?, key: P256.Signing.PrivateKey, keyID: String,
        issuerID: String, nonce: UUID, at date: Date
    ) throws -> String {
        var claims: [String: Any] = [
            "iss": issuerID, "iat": Int64(date.timeIntervalSince1970), "aud": audience, "bid": bundleID, "nonce": nonce.uuidString.lowercased(),
            "productId": productID, "offerIdentifier": offerID,
        ]
        if let transactionID { claims["transactionId"] = transactionID }
        let header = ["alg": "ES256", "kid": keyID, "typ": "JWT"]
        let input = Base64URL.encode(try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])) + "."
            + Base64URL.encode(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
        return input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)).rawRepresentation)
    }
}
