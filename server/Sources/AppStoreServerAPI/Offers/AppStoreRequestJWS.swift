import AppStoreModels
import Crypto
import Foundation

/// A compact JWS signing a request to the App Store as Apple's "Generating JWS to sign App Store
/// requests" describes: header `alg` ES256, `kid`, `typ` JWT; claims `iss` (the issuer ID), `iat`,
/// `aud`, `bid`, `nonce`, and the request's own. Signed with the team's in-app purchase key.
enum AppStoreRequestJWS {
    static func sign(
        audience: String, claims requestClaims: [String: Any], bundleID: String, key: P256.Signing.PrivateKey, keyID: String, issuerID: String,
        nonce: UUID, at date: Date
    ) throws -> String {
        var claims: [String: Any] = [
            "iss": issuerID, "iat": Int64(date.timeIntervalSince1970), "aud": audience, "bid": bundleID, "nonce": nonce.uuidString.lowercased(),
        ]
        claims.merge(requestClaims) { _, request in request }
        let header = ["alg": "ES256", "kid": keyID, "typ": "JWT"]
        let input = Base64URL.encode(try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])) + "."
            + Base64URL.encode(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
        return input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)).rawRepresentation)
    }
}
