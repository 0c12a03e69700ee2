import AppStoreModels
import AppStoreServerAPI
import Crypto
import Foundation

/// Apple's checks of what an app's server signs for a purchase, as the App Store makes them: a promotional
/// offer (its signature over Apple's fields, or its compact JWS) and the introductory-offer eligibility JWS
/// — an in-app purchase key Apple knows, this purchase's bundle and product, signed within the last 24
/// hours. The local store's HTTP face and its StoreKit backend apply these same checks.
public struct OfferSignatureCheck: Sendable {
    /// The in-app purchase keys the app's server may sign with, by key ID.
    public let keys: [String: P256.Signing.PublicKey]
    let now: @Sendable () -> Date

    public init(keys: [String: P256.Signing.PublicKey], now: @escaping @Sendable () -> Date) {
        self.keys = keys
        self.now = now
    }

    /// A promotional offer's signature (the form before the compact JWS): ECDSA P-256 over the U+2063-joined
    /// fields with the purchase's own bundle, product and appAccountToken.
    public func promotionalOffer(
        offerID: String, keyID: String, nonce: UUID, timestamp: Int64, signature: String, bundleID: String, productID: String, appAccountToken: UUID?
    ) throws(LocalStoreError) {
        guard let key = keys[keyID] else { throw Self.refused("invalid offer signature: unknown key \(keyID)") }
        guard abs(now().timeIntervalSince(Date(timeIntervalSince1970: Double(timestamp) / 1000))) <= 86_400 else {
            throw Self.refused("invalid offer signature: expired")
        }
        let payload = PromotionalOfferSignature.payload(
            bundleID: bundleID, keyID: keyID, productID: productID, offerID: offerID, appAccountToken: appAccountToken, nonce: nonce, timestamp: timestamp)
        guard let der = Data(base64Encoded: signature), let ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: der),
            key.isValidSignature(ecdsa, for: Data(payload.utf8))
        else { throw Self.refused("invalid offer signature") }
    }

    /// A promotional offer's compact JWS (``PromotionalOfferJWS``): for this product and offer.
    public func promotionalOffer(offerID: String, compactJWS: String, bundleID: String, productID: String) throws(LocalStoreError) {
        let claims = try signedClaims(of: compactJWS, what: "promotional offer")
        guard claims["aud"] as? String == PromotionalOfferJWS.audience, claims["bid"] as? String == bundleID, claims["productId"] as? String == productID,
            claims["offerIdentifier"] as? String == offerID
        else { throw Self.refused("invalid promotional offer: not for this app, product and offer") }
        try checkIssued(claims, what: "promotional offer")
    }

    /// An introductory-offer eligibility JWS (``IntroductoryOfferEligibilityJWS``): its `allowIntroductoryOffer`.
    public func introductoryOfferEligibility(_ jws: String, bundleID: String, productID: String) throws(LocalStoreError) -> Bool {
        let claims = try signedClaims(of: jws, what: "introductory offer eligibility")
        guard claims["aud"] as? String == IntroductoryOfferEligibilityJWS.audience, claims["bid"] as? String == bundleID,
            claims["productId"] as? String == productID, let allowed = claims["allowIntroductoryOffer"] as? Bool
        else { throw Self.refused("invalid introductory offer eligibility: not for this app and product") }
        try checkIssued(claims, what: "introductory offer eligibility")
        return allowed
    }

    /// The claims of an App Store request JWS signed ES256 by a known key (`kid`).
    private func signedClaims(of jws: String, what: String) throws(LocalStoreError) -> [String: Any] {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Base64URL.decode(parts[0].utf8), let payload = Base64URL.decode(parts[1].utf8),
            let signature = Base64URL.decode(parts[2].utf8),
            let headerFields = try? JSONSerialization.jsonObject(with: Data(header)) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
        else { throw Self.refused("invalid \(what): not a compact JWS") }
        guard headerFields["alg"] as? String == "ES256", let keyID = headerFields["kid"] as? String, let key = keys[keyID] else {
            throw Self.refused("invalid \(what): not ES256 by a known key")
        }
        guard let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: Data(signature)),
            key.isValidSignature(ecdsa, for: Data("\(parts[0]).\(parts[1])".utf8))
        else { throw Self.refused("invalid \(what): bad signature") }
        return claims
    }

    /// Signed (`iat`) within the last 24 hours.
    private func checkIssued(_ claims: [String: Any], what: String) throws(LocalStoreError) {
        guard let issued = (claims["iat"] as? NSNumber)?.doubleValue, abs(now().timeIntervalSince1970 - issued) <= 86_400 else {
            throw Self.refused("invalid \(what): expired")
        }
    }

    static func refused(_ message: String) -> LocalStoreError { LocalStoreError(.offerRefused, message) }
}
