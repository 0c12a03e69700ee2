import AppStoreModels
import Crypto
import Foundation
import NIOConcurrencyHelpers

/// The JSON Web Token the App Store Server API takes (ES256 with the in-app purchase key from App Store
/// Connect): header `alg` ES256, `kid`, `typ` JWT; claims `iss` (the issuer ID), `iat`, `exp`, `aud`
/// `appstoreconnect-v1` and `bid` (the bundle ID). Apple refuses tokens that expire more than 60 minutes
/// after `iat`; a token lives ``lifetime`` and is reused until ``renewBefore`` its expiry.
public final class APIToken: Sendable {
    public static let audience = "appstoreconnect-v1"
    public static let lifetime: TimeInterval = 20 * 60
    public static let renewBefore: TimeInterval = 60

    let key: P256.Signing.PrivateKey
    let keyID: String
    let issuerID: String
    let bundleID: String
    private let current = NIOLockedValueBox<(token: String, expires: Date)?>(nil)

    public init(key: P256.Signing.PrivateKey, keyID: String, issuerID: String, bundleID: String) {
        self.key = key
        self.keyID = keyID
        self.issuerID = issuerID
        self.bundleID = bundleID
    }

    /// A key from a `.p8` file's contents (PEM, PKCS #8).
    public static func key(p8 text: String) throws -> P256.Signing.PrivateKey {
        try P256.Signing.PrivateKey(pemRepresentation: text)
    }

    /// The token to send at `now`: the current one while it has more than ``renewBefore`` left.
    public func token(at now: Date) throws -> String {
        if let current = current.withLockedValue({ $0 }), current.expires.timeIntervalSince(now) > Self.renewBefore, now >= current.expires - Self.lifetime {
            return current.token
        }
        let issued = Int64(now.timeIntervalSince1970)
        let header = ["alg": "ES256", "kid": keyID, "typ": "JWT"]
        let claims: [String: Any] = [
            "iss": issuerID, "iat": issued, "exp": issued + Int64(Self.lifetime), "aud": Self.audience, "bid": bundleID,
        ]
        let encodedHeader = Base64URL.encode(try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]))
        let encodedClaims = Base64URL.encode(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
        let input = "\(encodedHeader).\(encodedClaims)"
        let signature = try key.signature(for: Data(input.utf8)).rawRepresentation
        let token = "\(input).\(Base64URL.encode(signature))"
        self.current.withLockedValue { $0 = (token, Date(timeIntervalSince1970: Double(issued) + Self.lifetime)) }
        return token
    }
}
