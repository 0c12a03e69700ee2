import Crypto
import Foundation

/// A promotional offer's signature, as StoreKit takes it with the offer (Apple's "Generating a
/// signature for promotional offers"): ECDSA P-256 with SHA-256 over
/// `bundleID ⁣ keyID ⁣ productID ⁣ offerID ⁣ appAccountToken ⁣ nonce ⁣ timestamp` (joined by U+2063,
/// the token and nonce lowercase, the timestamp in milliseconds), DER, base64.
public struct PromotionalOfferSignature: Hashable, Sendable, Codable {
    public var keyID: String
    public var nonce: UUID
    /// Unix milliseconds.
    public var timestamp: Int64
    /// Base64 of the DER ECDSA signature.
    public var signature: String

    /// Signs the offer `offerID` of `productID` for the app `bundleID` with the subscription offer key
    /// `key` (its ID `keyID`), for the user's `appAccountToken` (or none).
    public static func sign(
        bundleID: String, productID: String, offerID: String, appAccountToken: UUID?, key: P256.Signing.PrivateKey, keyID: String,
        nonce: UUID, at date: Date
    ) throws -> PromotionalOfferSignature {
        let timestamp = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let payload = Self.payload(
            bundleID: bundleID, keyID: keyID, productID: productID, offerID: offerID, appAccountToken: appAccountToken, nonce: nonce, timestamp: timestamp)
        let signature = try key.signature(for: Data(payload.utf8))
        return PromotionalOfferSignature(keyID: keyID, nonce: nonce, timestamp: timestamp, signature: signature.derRepresentation.base64EncodedString())
    }

    /// The string the signature covers.
    public static func payload(
        bundleID: String, keyID: String, productID: String, offerID: String, appAccountToken: UUID?, nonce: UUID, timestamp: Int64
    ) -> String {
        [bundleID, keyID, productID, offerID, appAccountToken?.uuidString.lowercased() ?? "", nonce.uuidString.lowercased(), String(timestamp)]
            .joined(separator: "\u{2063}")
    }
}
