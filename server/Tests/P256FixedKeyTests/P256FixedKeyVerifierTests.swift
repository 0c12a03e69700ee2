import Crypto
import EntitleCore
import Foundation
import Testing

@testable import P256FixedKey

/// Every verdict is compared with swift-crypto's (BoringSSL's `ECDSA_do_verify`) on the same key,
/// signature and digest, and checked against what it must be.
@Suite("P256FixedKeyVerifier")
struct P256FixedKeyVerifierTests {
    static func verdicts(_ key: P256.Signing.PublicKey, _ verifier: P256FixedKeyVerifier, r: P256Limbs, s: P256Limbs, digest: P256Limbs) -> (ours: Bool, boringSSL: Bool) {
        let raw = r.bigEndianBytes + s.bigEndianBytes
        let ours = raw.withUnsafeBytes { signature in RawDigest(digest).bytes.withUnsafeBytes { verifier.isValidSignature(signature, digest: $0) } }
        let theirs = key.isValidSignature(try! P256.Signing.ECDSASignature(rawRepresentation: raw), for: RawDigest(digest))
        return (ours, theirs)
    }

    static func split(_ signature: P256.Signing.ECDSASignature) -> (r: P256Limbs, s: P256Limbs) {
        signature.rawRepresentation.withUnsafeBytes { (P256Limbs(bigEndian: $0, at: 0), P256Limbs(bigEndian: $0, at: 32)) }
    }

    @Test("Signatures made by the key verify, with s or n − s; altered ones don't", arguments: 0..<3)
    func signatures(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let privateKey = P256Samples.privateKey(P256Samples.below(P256Samples.n, &random))
        let key = privateKey.publicKey
        let verifier = try #require(P256FixedKeyVerifier(key))
        for _ in 0..<15 {
            let digest = P256Samples.limbs(&random)
            let (r, s) = Self.split(try privateKey.signature(for: RawDigest(digest)))
            #expect(Self.verdicts(key, verifier, r: r, s: s, digest: digest) == (true, true))
            let highS = P256Samples.n.subtractingReportingBorrow(s).difference
            #expect(Self.verdicts(key, verifier, r: r, s: highS, digest: digest) == (true, true))
            let bit = Int.random(in: 0..<256, using: &random)
            let flip = P256CombTableTests.power(of: bit)
            let flipped = { (value: P256Limbs) in
                P256Limbs(w0: value.w0 ^ flip.w0, w1: value.w1 ^ flip.w1, w2: value.w2 ^ flip.w2, w3: value.w3 ^ flip.w3)
            }
            #expect(Self.verdicts(key, verifier, r: flipped(r), s: s, digest: digest) == (false, false))
            #expect(Self.verdicts(key, verifier, r: r, s: flipped(s), digest: digest) == (false, false))
            #expect(Self.verdicts(key, verifier, r: r, s: s, digest: flipped(digest)) == (false, false))
        }
        let other = try #require(P256FixedKeyVerifier(P256.Signing.PrivateKey().publicKey))
        let digest = P256Samples.limbs(&random)
        let (r, s) = Self.split(try privateKey.signature(for: RawDigest(digest)))
        #expect((r.bigEndianBytes + s.bigEndianBytes).withUnsafeBytes { signature in
            RawDigest(digest).bytes.withUnsafeBytes { other.isValidSignature(signature, digest: $0) }
        } == false)
    }

    @Test("r and s outside 1…n − 1 are refused, as BoringSSL refuses them")
    func ranges() throws {
        var random = SeededGenerator(seed: 40)
        let privateKey = P256Samples.privateKey(P256Samples.below(P256Samples.n, &random))
        let verifier = try #require(P256FixedKeyVerifier(privateKey.publicKey))
        let digest = P256Samples.limbs(&random)
        let (r, s) = Self.split(try privateKey.signature(for: RawDigest(digest)))
        let n = P256Samples.n
        let all = P256Limbs(w0: .max, w1: .max, w2: .max, w3: .max)
        let outside = [.zero, n, n.addingReportingCarry(P256Samples.one).sum, all]
        for value in outside {
            #expect(Self.verdicts(privateKey.publicKey, verifier, r: value, s: s, digest: digest) == (false, false))
            #expect(Self.verdicts(privateKey.publicKey, verifier, r: r, s: value, digest: digest) == (false, false))
        }
        // r + n names the same x modulo n, but r must be below n.
        let (rPlusN, carry) = r.addingReportingCarry(n)
        if !carry { #expect(Self.verdicts(privateKey.publicKey, verifier, r: rPlusN, s: s, digest: digest) == (false, false)) }
    }

    @Test("A digest at or above n is taken modulo n, as BoringSSL takes it")
    func digestAboveOrder() throws {
        var random = SeededGenerator(seed: 41)
        let privateKey = P256Samples.privateKey(P256Samples.below(P256Samples.n, &random))
        let verifier = try #require(P256FixedKeyVerifier(privateKey.publicKey))
        let all = P256Limbs(w0: .max, w1: .max, w2: .max, w3: .max)
        for digest in [P256Samples.n, all, P256Samples.n.addingReportingCarry(P256Samples.one).sum] {
            let (r, s) = Self.split(try privateKey.signature(for: RawDigest(digest)))
            #expect(Self.verdicts(privateKey.publicKey, verifier, r: r, s: s, digest: digest) == (true, true))
            let reduced = digest.subtractingReportingBorrow(P256Samples.n).difference
            #expect(Self.verdicts(privateKey.publicKey, verifier, r: r, s: s, digest: reduced) == (true, true))
        }
    }

    @Test("u₁·G + u₂·Q at infinity is refused", arguments: 0..<3)
    func infinity(seed: UInt64) throws {
        var random = SeededGenerator(seed: 50 + seed)
        let d = P256Samples.below(P256Samples.n, &random)
        let key = P256Samples.privateKey(d).publicKey
        let verifier = try #require(P256FixedKeyVerifier(key))
        let r = P256Samples.below(P256Samples.n, &random), s = P256Samples.below(P256Samples.n, &random)
        // e = −r·d makes u₁ + u₂·d = (e + r·d)/s = 0.
        let digest = P256Limbs.zero.subtracting(P256Samples.scalarProduct(r, d), modulo: P256Samples.n)
        #expect(Self.verdicts(key, verifier, r: r, s: s, digest: digest) == (false, false))
    }

    @Test("A point whose x is at or above n verifies with r = x − n", arguments: 0..<2)
    func xAboveOrder(seed: UInt64) throws {
        var random = SeededGenerator(seed: 60 + seed)
        // R: the first x at or above n (and below p) on the curve; y = √(x³ − 3x + b), p ≡ 3 mod 4.
        let exponent = P256Samples.p.addingReportingCarry(P256Samples.one).sum  // (p + 1), shifted below
        let quarter = P256Limbs(
            w0: exponent.w0 >> 2 | exponent.w1 << 62, w1: exponent.w1 >> 2 | exponent.w2 << 62,
            w2: exponent.w2 >> 2 | exponent.w3 << 62, w3: exponent.w3 >> 2)
        var candidate = P256Samples.n.addingReportingCarry(P256Limbs(w0: UInt64(seed * 1_000), w1: 0, w2: 0, w3: 0)).sum
        var point: P256AffinePoint?
        // Half of all x are on the curve; 64 tries without one would mean the square root is wrong.
        for _ in 0..<64 where point == nil {
            candidate = candidate.addingReportingCarry(P256Samples.one).sum
            let x = P256Field.montgomery(candidate)
            let right = P256Field.add(
                P256Field.subtract(P256Field.multiply(P256Field.square(x), x), P256Field.add(x, P256Field.add(x, x))), P256AffinePoint.b)
            let y = P256Field.power(right, quarter)
            if P256Field.square(y) == right { point = P256AffinePoint(x: x, y: y) }
        }
        let big = try #require(point)
        let r = candidate.subtractingReportingBorrow(P256Samples.n).difference
        let s = P256Samples.below(P256Samples.n, &random), e = P256Samples.below(P256Samples.n, &random)
        // Q = u₂⁻¹·(R − u₁·G) for u₁ = e/s, u₂ = r/s, so that u₁·G + u₂·Q = R.
        let w = P256Samples.plainScalar(P256Order.inverse(P256Order.montgomery(s)))
        let u1 = P256Samples.scalarProduct(e, w), u2 = P256Samples.scalarProduct(r, w)
        let minusU1G = P256CombTable.generator.multiply(P256Samples.n.subtractingReportingBorrow(u1).difference)
        let difference = try #require(P256CombTable(P256Samples.affine(minusU1G.adding(big))))
        let u2Inverse = P256Samples.plainScalar(P256Order.inverse(P256Order.montgomery(u2)))
        let q = try #require(P256Samples.x963(difference.multiply(u2Inverse)))
        let key = try P256.Signing.PublicKey(x963Representation: q)
        let verifier = try #require(P256FixedKeyVerifier(key))
        #expect(Self.verdicts(key, verifier, r: r, s: s, digest: e) == (true, true))
        #expect(Self.verdicts(key, verifier, r: r.addingReportingCarry(P256Samples.one).sum, s: s, digest: e) == (false, false))
        // x itself is r + n: the same point, but no r may be n or above.
        #expect(Self.verdicts(key, verifier, r: candidate, s: s, digest: e) == (false, false))
    }

    @Test("Digests of other lengths count as BoringSSL counts them: the first 32 bytes, or a shorter integer", arguments: [0, 1, 20, 31, 33, 48, 64])
    func digestLengths(length: Int) throws {
        var random = SeededGenerator(seed: 70 + UInt64(length))
        let privateKey = P256Samples.privateKey(P256Samples.below(P256Samples.n, &random))
        let key = privateKey.publicKey
        let verifier = try #require(P256FixedKeyVerifier(key))
        let digest = RawDigest(bytes: (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) })
        let signature = try privateKey.signature(for: digest)
        #expect(key.isValidSignature(signature, for: digest))
        #expect(verifier.isValidSignature(signature.rawRepresentation, for: digest))
        // The same value spelt in 32 bytes (leading zeros, or the first 32 of a longer digest) verifies too.
        let same = RawDigest(bytes: length >= 32 ? Array(digest.bytes.prefix(32)) : [UInt8](repeating: 0, count: 32 - length) + digest.bytes)
        #expect(verifier.isValidSignature(signature.rawRepresentation, for: same))
        #expect(key.isValidSignature(signature, for: same))
        if length > 32 {
            var changedTail = digest.bytes
            changedTail[length - 1] ^= 1
            #expect(verifier.isValidSignature(signature.rawRepresentation, for: RawDigest(bytes: changedTail)))
        }
        if length > 0 {
            var changedFirst = digest.bytes
            changedFirst[0] ^= 0x80
            #expect(!verifier.isValidSignature(signature.rawRepresentation, for: RawDigest(bytes: changedFirst)))
            #expect(!key.isValidSignature(signature, for: RawDigest(bytes: changedFirst)))
        }
        let sha384 = SHA384.hash(data: Data("header.payload".utf8))
        #expect(verifier.isValidSignature(try privateKey.signature(for: sha384).rawRepresentation, for: sha384))
    }

    @Test("The public entry takes the raw signature and a SHA-256 digest; other lengths are refused")
    func publicEntry() throws {
        let privateKey = P256.Signing.PrivateKey()
        let verifier = try #require(P256FixedKeyVerifier(privateKey.publicKey))
        #expect(verifier.key.rawRepresentation == privateKey.publicKey.rawRepresentation)
        let message = Data("header.payload".utf8)
        let signature = try privateKey.signature(for: message).rawRepresentation
        #expect(verifier.isValidSignature(signature, for: SHA256.hash(data: message)))
        #expect(!verifier.isValidSignature(signature, for: SHA256.hash(data: Data("header.payloaD".utf8))))
        #expect(!verifier.isValidSignature(signature.dropLast(), for: SHA256.hash(data: message)))
        #expect(!verifier.isValidSignature(signature + [0], for: SHA256.hash(data: message)))
    }
}
