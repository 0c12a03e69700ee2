import Crypto
import Foundation

/// ECDSA P-256 verification for one public key, with comb tables for the generator and the key:
/// `u₁·G + u₂·Q` without a single doubling, where BoringSSL doubles 255 times for `u₂·Q` on every
/// signature. Apple signs nearly every payload with a few long-lived leaf keys, so a cached chain
/// builds its key's table once (~2 ms, 151,552 bytes) and each later signature costs under half
/// (~22.5 µs against ~54 µs, with s⁻¹ by ``P256Order/inverseVariableTime(_:)``).
///
/// The same checks as BoringSSL's `ECDSA_do_verify`: `r` and `s` in 1…n−1, the digest as an integer
/// (its first 32 bytes) reduced mod n, `x(u₁·G + u₂·Q) mod n = r`, the point at infinity rejected. Held to
/// swift-crypto's verification by differential tests and the `FuzzP256` fuzzer. Not constant-time:
/// it handles public keys, signatures and digests only.
public final class P256FixedKeyVerifier: Sendable {
    /// The key this verifier checks signatures with.
    public let key: P256.Signing.PublicKey
    private let table: P256CombTable

    /// Builds the key's table; `nil` only if the key's point doesn't check out (swift-crypto validates
    /// keys, so this isn't expected).
    public init?(_ key: P256.Signing.PublicKey) {
        guard let point = P256AffinePoint(x963: Array(key.x963Representation)), let table = P256CombTable(point) else { return nil }
        self.key = key
        self.table = table
    }

    /// Whether `signature` (r ‖ s, 64 bytes) signs `digest` with this key. A digest longer than 32
    /// bytes counts by its first 32, a shorter one as the integer it spells, as BoringSSL takes them.
    public func isValidSignature<D: Digest>(_ signature: some ContiguousBytes, for digest: D) -> Bool {
        signature.withUnsafeBytes { signature in
            digest.withUnsafeBytes { digest in isValidSignature(signature, digest: digest) }
        }
    }

    func isValidSignature(_ signature: UnsafeRawBufferPointer, digest: UnsafeRawBufferPointer) -> Bool {
        guard signature.count == 64 else { return false }
        let e: P256Limbs
        if digest.count >= 32 {
            e = P256Order.reduced(P256Limbs(bigEndian: digest))
        } else {
            e = withUnsafeTemporaryAllocation(byteCount: 32, alignment: 8) { padded in
                padded.initializeMemory(as: UInt8.self, repeating: 0)
                UnsafeMutableRawBufferPointer(rebasing: padded[(32 - digest.count)...]).copyMemory(from: digest)
                return P256Limbs(bigEndian: UnsafeRawBufferPointer(padded))
            }
        }
        let n = P256Order.n
        let r = P256Limbs(bigEndian: signature, at: 0)
        let s = P256Limbs(bigEndian: signature, at: 32)
        guard !r.isZero, !s.isZero, r.isLess(than: n), s.isLess(than: n) else { return false }

        // w = s⁻¹ in Montgomery form; e·w and r·w come out of it as plain integers.
        let w = P256Order.montgomery(P256Order.inverseVariableTime(s))
        let u1 = P256Order.multiply(e, w)
        let u2 = P256Order.multiply(r, w)

        let generator = P256CombTable.generator
        var sum = P256Point.infinity
        var (carry1, carry2) = (0, 0)
        for window in 0..<P256CombTable.windows {
            generator.add(window: window, digit: P256CombTable.digit(of: u1, window: window, carry: &carry1), to: &sum)
            table.add(window: window, digit: P256CombTable.digit(of: u2, window: window, carry: &carry2), to: &sum)
        }
        guard !sum.isInfinity else { return false }

        // x(sum) = X/Z² is below p; it is r mod n when X = r·Z², or (r + n)·Z² if r + n < p.
        let z2 = P256Field.square(sum.z)
        if P256Field.multiply(P256Field.montgomery(r), z2) == sum.x { return true }
        let (rPlusN, carry) = r.addingReportingCarry(n)
        guard !carry, rPlusN.isLess(than: P256Field.p) else { return false }
        return P256Field.multiply(P256Field.montgomery(rPlusN), z2) == sum.x
    }
}
