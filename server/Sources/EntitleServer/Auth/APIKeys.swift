import AppStoreModels
import Crypto
import EntitleCore
import Foundation

/// The API keys the server accepts.
///
/// - **Secret keys** (`sk_…`) reach everything. Only their SHA-256 hashes are kept; configure them as
///   the key itself (hashed on load) or as `sha256:<hex>`.
/// - **Public keys** (`pk_…`) are for apps, one per subscriber: the base64url HMAC-SHA256 of the app user
///   id under the server's public-key secret. A public key reaches only the subscriber it was minted for;
///   nothing about it is stored, and rotating the secret revokes them all.
public struct APIKeys: Sendable {
    public enum Identity: Hashable, Sendable {
        /// A server-wide secret key (`--secret-key`): every app.
        case secret
        case subscriber(appUserID: AppUserID)
        /// A stored app key: its app's subscribers, from inside the app.
        case appKey(app: BundleID)
        /// A stored secret key: everything of its app.
        case appSecret(app: BundleID)
    }

    private let secretKeyHashes: [[UInt8]]
    private let publicKeySecret: SymmetricKey?

    /// - Parameters:
    ///   - secretKeys: `sk_…` keys, or `sha256:<hex>` hashes of them.
    ///   - publicKeySecret: the secret public keys are derived from; without it no public key is valid.
    public init(secretKeys: [String], publicKeySecret: String?) throws(ServiceError) {
        var hashes: [[UInt8]] = []
        for key in secretKeys {
            if key.hasPrefix("sha256:") {
                let hex = key.dropFirst("sha256:".count)
                guard hex.count == 64, let bytes = Hex.decode(hex) else {
                    throw ServiceError(.invalidRequest, "a secret key hash is sha256: and 64 hex digits")
                }
                hashes.append(bytes)
            } else {
                guard key.count >= 16 else {
                    throw ServiceError(.invalidRequest, "a secret key has at least 16 characters")
                }
                hashes.append(Array(SHA256.hash(data: Data(key.utf8))))
            }
        }
        secretKeyHashes = hashes
        self.publicKeySecret = publicKeySecret.map { SymmetricKey(data: Data($0.utf8)) }
    }

    /// Whether public keys can be minted (a public-key secret is configured).
    public var mintsPublicKeys: Bool { publicKeySecret != nil }

    /// A new random secret key, for operators to configure.
    public static func generateSecretKey() -> String {
        "sk_" + Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64URL
    }

    /// The public key of `appUserID`, or `nil` when no public-key secret is configured. Keys of the
    /// primary app (`app` nil) are derived from the app user ID alone, as before apps existed; keys of
    /// the other apps from the bundle ID and the app user ID, so a key reaches one app's subscriber only.
    public func publicKey(for appUserID: AppUserID, app: BundleID? = nil) -> String? {
        guard let publicKeySecret else { return nil }
        let input = app.map { "\($0)\u{1F}\(appUserID)" } ?? appUserID.rawValue
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: publicKeySecret)
        return "pk_" + Data(mac).base64URL
    }

    /// Who presents `key`, for a request about `appUserID` (when the route names one).
    ///   - app: the bundle ID of a non-primary app the request is for (`nil` for the primary app).
    public func identify(_ key: String, appUserID: AppUserID?, app: BundleID? = nil) -> Identity? {
        if key.hasPrefix("pk_") {
            guard let appUserID, let publicKeySecret,
                let mac = Data(base64URL: String(key.dropFirst(3)))
            else { return nil }
            let input = app.map { "\($0)\u{1F}\(appUserID)" } ?? appUserID.rawValue
            let valid = HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Data(input.utf8), using: publicKeySecret)
            return valid ? .subscriber(appUserID: appUserID) : nil
        }
        let presented = Array(SHA256.hash(data: Data(key.utf8)))
        // Compare every hash in constant time per comparison, so timing doesn't reveal which matched.
        var matched = false
        for hash in secretKeyHashes where Self.constantTimeEqual(hash, presented) { matched = true }
        return matched ? .secret : nil
    }

    /// Whether `key` is one of the server-wide secret keys.
    public func isServerSecret(_ key: String) -> Bool {
        identify(key, appUserID: nil) == .secret
    }

    static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(lhs, rhs) { difference |= a ^ b }
        return difference == 0
    }
}

extension Data {
    var base64URL: String { Base64URL.encode(self) }

    init?(base64URL text: String) {
        guard let data = Base64URL.decode(text) else { return nil }
        self = data
    }
}
