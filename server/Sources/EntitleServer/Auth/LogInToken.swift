import AppStoreModels
import Crypto
import EntitleCore
import Foundation

/// A log-in token: the app's backend vouching, for a few minutes, that the person using the app is
/// `sub` of the app `aud` (docs/identity.md). A compact JWS signed with ES256 by a P-256 key whose public
/// half the app's entitlements file lists under `logInTokens.publicKeys`:
///
///     header  {"alg":"ES256","typ":"JWT","kid":"<key ID>"}
///     claims  {"sub":"<app user ID>","aud":"<bundle ID>","iat":<seconds>,"exp":<seconds>}
///
/// Any JWT library signs one; ``sign(appUserID:app:issuedAt:lifetime:keyID:key:)`` does it in Swift.
public struct LogInToken: Sendable {
    /// The longest a token may live (`exp − iat`): it is a proof for one log-in, not a session.
    public static let maximumLifetime: TimeInterval = 3600
    /// How far the backend's clock may run ahead of or behind the server's.
    public static let clockSkew: TimeInterval = 60
    /// Longer tokens are refused unread.
    public static let maximumLength = 4096

    struct Header: Codable {
        var alg: String
        var typ: String?
        var kid: String?
    }

    struct Claims: Codable {
        var sub: String
        var aud: String
        var iat: Int64
        var exp: Int64
    }

    /// A token saying that `appUserID` of `app` is logging in, signed with the backend's `key`.
    public static func sign(
        appUserID: AppUserID, app: BundleID, issuedAt: Date, lifetime: TimeInterval = 300, keyID: String, key: P256.Signing.PrivateKey
    ) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let iat = Int64(saturating: issuedAt.timeIntervalSince1970, rounding: .down)
        let header = try encoder.encode(Header(alg: "ES256", typ: "JWT", kid: keyID))
        let claims = try encoder.encode(Claims(sub: appUserID.rawValue, aud: app.rawValue, iat: iat, exp: iat.saturatingAdding(Int64(saturating: lifetime, rounding: .down))))
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(claims)
        let signature = try key.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// A new backend key: its private key as PEM (kept by the backend) and its public key as PEM (for
    /// the entitlements file).
    public static func generateKey() -> (privateKey: String, publicKey: String) {
        let key = P256.Signing.PrivateKey()
        return (key.pemRepresentation, key.publicKey.pemRepresentation)
    }
}

/// Checks log-in tokens for one app against its backend's public keys.
public struct LogInTokenVerifier: Sendable {
    private let keys: [String: P256.Signing.PublicKey]
    private let app: BundleID

    /// - Throws: `auth.invalidLogInToken` (as a configuration error) for a listed key that is not a
    ///   point of P-256.
    public init(policy: LogInTokenPolicy, app: BundleID) throws(ServiceError) {
        var keys: [String: P256.Signing.PublicKey] = [:]
        for (keyID, point) in policy.publicKeys {
            guard let key = try? P256.Signing.PublicKey(x963Representation: point) else {
                throw ServiceError(.invalidRequest, "the log-in token key \(keyID) of \(app) is not a point of P-256")
            }
            keys[keyID] = key
        }
        self.keys = keys
        self.app = app
    }

    /// Checks that `token` proves, at `now`, that the user logging in is `appUserID`.
    /// - Throws: `auth.invalidLogInToken`, saying which check failed (never echoing the token).
    public func verify(_ token: String, appUserID: AppUserID, now: Date) throws(ServiceError) {
        func invalid(_ reason: String) -> ServiceError { ServiceError(.invalidLogInToken, "the log-in token \(reason)") }
        guard token.utf8.count <= LogInToken.maximumLength else { throw invalid("is longer than \(LogInToken.maximumLength) bytes") }
        let parts = token.split(separator: ".", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Base64URL.decode(String(parts[0])), let claimsData = Base64URL.decode(String(parts[1])),
            let signatureData = Base64URL.decode(String(parts[2]))
        else { throw invalid("is not a compact JWS (three base64url parts)") }
        guard let header = try? JSONDecoder().decode(LogInToken.Header.self, from: headerData) else { throw invalid("has no readable header") }
        guard header.alg == "ES256" else { throw invalid("is signed with \(header.alg.prefix(20)), not ES256") }
        let key: P256.Signing.PublicKey
        if let keyID = header.kid {
            guard let named = keys[keyID] else { throw invalid("names a key (kid) the app doesn't list") }
            key = named
        } else {
            guard keys.count == 1, let only = keys.values.first else { throw invalid("names no key (kid), and the app lists several") }
            key = only
        }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
            key.isValidSignature(signature, for: Data(parts[0].utf8) + Data(".".utf8) + Data(parts[1].utf8))
        else { throw invalid("is not signed by the app's backend") }
        // Only what is signed is read from here on.
        guard let claims = try? JSONDecoder().decode(LogInToken.Claims.self, from: claimsData) else {
            throw invalid("has no readable claims (sub, aud, iat and exp in whole seconds)")
        }
        let latest = Int64(saturating: AppStoreValueRanges.instants.upperBound.timeIntervalSince1970)
        guard (0...latest).contains(claims.iat), (0...latest).contains(claims.exp) else { throw invalid("has an iat or exp out of range") }
        guard claims.aud == app.rawValue else { throw invalid("is for another app") }
        guard claims.sub == appUserID.rawValue else { throw invalid("is for another user") }
        guard claims.exp > claims.iat, Double(claims.exp - claims.iat) <= LogInToken.maximumLifetime else {
            throw invalid("lives longer than \(Int(LogInToken.maximumLifetime)) s, or not at all (exp − iat)")
        }
        let seconds = now.timeIntervalSince1970
        guard Double(claims.iat) <= seconds + LogInToken.clockSkew else { throw invalid("was issued in the future") }
        guard seconds < Double(claims.exp) + LogInToken.clockSkew else { throw invalid("has expired") }
    }
}
