import Crypto
import Foundation

/// How a secret is kept at rest — an API key, a dashboard session's cookie, an invitation's token, a
/// WebAuthn challenge: the SHA-256 of its UTF-8, in lowercase hex. Never the secret itself.
enum SecretDigest {
    static func of(_ secret: String) -> String {
        Hex.encode(SHA256.hash(data: Data(secret.utf8)))
    }
}
