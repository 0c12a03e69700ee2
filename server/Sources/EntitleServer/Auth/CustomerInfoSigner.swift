import Crypto
import EntitleWire
import Foundation

/// Signs the server's answers about a subscriber (Ed25519 over the exact body bytes), so an app can keep
/// them in a cache that a hand-edited file can't fool: the SDK holds only the public key and caches only
/// what verifies.
public struct CustomerInfoSigner: Sendable {
    /// The response header carrying the signature: `ed25519=<base64url>`.
    public static let header = "Entitle-Signature"

    private let key: Curve25519.Signing.PrivateKey

    public init(key: Curve25519.Signing.PrivateKey) {
        self.key = key
    }

    /// A key from its 32 raw bytes, base64url.
    public init?(base64URL text: String) {
        guard let data = Data(base64URL: text.trimmingCharacters(in: .whitespacesAndNewlines)),
            let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: data)
        else { return nil }
        self.key = key
    }

    /// A new random key's raw bytes, base64url.
    public static func generateKey() -> String {
        Curve25519.Signing.PrivateKey().rawRepresentation.base64URL
    }

    /// The public key apps verify with, base64url of its 32 raw bytes.
    public var publicKey: String { key.publicKey.rawRepresentation.base64URL }

    /// The header value for `body`.
    public func signature(for body: Data) throws -> String {
        "ed25519=" + (try key.signature(for: body)).base64URL
    }
}
