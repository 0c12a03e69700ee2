import Crypto
import Foundation

/// A configured secret key's name in the audit log: the first 12 hex digits of its SHA-256, which name the
/// key without revealing it.
public enum AuthenticationFingerprint {
    public static func of(_ key: String) -> String {
        SHA256.hash(data: Data(key.utf8)).prefix(6).map { String(format: "%02x", $0) }.joined()
    }
}
