import Crypto
import NIOConcurrencyHelpers

/// Serialises EC key generation in the process: swift-crypto's BoringSSL key generation was seen
/// crashing in EC_KEY_check_fips when several tasks generated keys at once.
public enum KeyGeneration {
    private static let lock = NIOLockedValueBox(())

    public static func p256() -> P256.Signing.PrivateKey { lock.withLockedValue { _ in P256.Signing.PrivateKey() } }
    public static func p384() -> P384.Signing.PrivateKey { lock.withLockedValue { _ in P384.Signing.PrivateKey() } }
}
