import Crypto
import NIOConcurrencyHelpers

/// EC keys for the local App Store's authority and the tests' PKIs: a private scalar drawn from the
/// system's cryptographic random source, rejected and drawn again unless it is in [1, n − 1] (BoringSSL
/// checks it), the public key computed from it. Not swift-crypto's `PrivateKey()`, which draws keys
/// until one is compact-representable (two on average) and runs FIPS pairwise tests on each: a P-384
/// key took ~6 ms that way in a debug build, 1 ms this way, and every test makes several.
///
/// Serialised in the process: swift-crypto's BoringSSL key generation was seen crashing in
/// EC_KEY_check_fips when several tasks generated keys at once.
public enum KeyGeneration {
    private static let lock = NIOLockedValueBox(())

    public static func p256() -> P256.Signing.PrivateKey {
        lock.withLockedValue { _ in
            drawn(byteCount: 32) { try? P256.Signing.PrivateKey(rawRepresentation: $0) } ?? P256.Signing.PrivateKey()
        }
    }

    public static func p384() -> P384.Signing.PrivateKey {
        lock.withLockedValue { _ in
            drawn(byteCount: 48) { try? P384.Signing.PrivateKey(rawRepresentation: $0) } ?? P384.Signing.PrivateKey()
        }
    }

    /// The first key `make` accepts from `byteCount` random bytes, of at most 64 draws (a draw outside
    /// [1, n − 1] has odds below 2^-32 on these curves); `nil` after that, for the caller to fall back.
    static func drawn<Key>(byteCount: Int, _ make: ([UInt8]) -> Key?) -> Key? {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<64 {
            var bytes = [UInt8](repeating: 0, count: byteCount)
            for index in bytes.indices { bytes[index] = random.next() }
            if let key = make(bytes) { return key }
        }
        return nil
    }
}
