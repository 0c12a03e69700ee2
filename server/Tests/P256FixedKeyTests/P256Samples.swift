import Crypto
import EntitleCore
import Foundation
@testable import P256FixedKey

/// Values and references for the P-256 suites: random limbs from a seeded generator, swift-crypto's
/// keys for a scalar, points in SEC 1 form, and arithmetic written the slow way from additions.
enum P256Samples {
    static func limbs(_ random: inout SeededGenerator) -> P256Limbs {
        P256Limbs(w0: random.next(), w1: random.next(), w2: random.next(), w3: random.next())
    }

    /// A value in 1..<bound.
    static func below(_ bound: P256Limbs, _ random: inout SeededGenerator) -> P256Limbs {
        while true {
            let value = limbs(&random)
            if !value.isZero, value.isLess(than: bound) { return value }
        }
    }

    static func limbs(hex: String) -> P256Limbs {
        let bytes = stride(from: 0, to: 64, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
        return bytes.withUnsafeBytes { P256Limbs(bigEndian: $0) }
    }

    static let p = limbs(hex: "FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF")
    static let n = limbs(hex: "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")
    static let one = P256Limbs(w0: 1, w1: 0, w2: 0, w3: 0)

    /// swift-crypto's key for the private scalar `scalar` (1..<n).
    static func privateKey(_ scalar: P256Limbs) -> P256.Signing.PrivateKey {
        try! P256.Signing.PrivateKey(rawRepresentation: scalar.bigEndianBytes)
    }

    /// `scalar·G` as swift-crypto computes it, `04 ‖ x ‖ y`.
    static func publicPoint(_ scalar: P256Limbs) -> [UInt8] {
        Array(privateKey(scalar).publicKey.x963Representation)
    }

    /// `04 ‖ x ‖ y` of a point, `nil` at infinity.
    static func x963(_ point: P256Point) -> [UInt8]? {
        guard let affine = P256AffinePoint.batch([point]) else { return nil }
        return x963(affine[0])
    }

    static func x963(_ point: P256AffinePoint) -> [UInt8] {
        [4] + P256Field.multiply(point.x, one).bigEndianBytes + P256Field.multiply(point.y, one).bigEndianBytes
    }

    static func affine(_ point: P256Point) -> P256AffinePoint { P256AffinePoint.batch([point])![0] }

    /// `a·b mod m` by doubling and adding, for `a, b < m`: a reference that shares only the additions.
    static func product(_ a: P256Limbs, _ b: P256Limbs, modulo m: P256Limbs) -> P256Limbs {
        var result = P256Limbs.zero
        for bit in stride(from: 255, through: 0, by: -1) {
            result = result.adding(result, modulo: m)
            if b.bits(at: bit, count: 1) == 1 { result = result.adding(a, modulo: m) }
        }
        return result
    }

    /// `2²⁵⁶ mod m` and `2⁵¹² mod m` by doubling 1: what the Montgomery constants must be.
    static func powersOfTwo(modulo m: P256Limbs) -> (r: P256Limbs, rSquared: P256Limbs) {
        var value = one
        var r = P256Limbs.zero
        for doubling in 1...512 {
            value = value.adding(value, modulo: m)
            if doubling == 256 { r = value }
        }
        return (r, value)
    }

    /// A scalar in plain form from Montgomery form mod n.
    static func plainScalar(_ value: P256Limbs) -> P256Limbs { P256Order.multiply(value, one) }

    /// `a·b mod n`, plain in and out.
    static func scalarProduct(_ a: P256Limbs, _ b: P256Limbs) -> P256Limbs {
        P256Order.multiply(P256Order.montgomery(a), b)
    }
}

/// A digest of any bytes, so swift-crypto signs and verifies values no hash gives on demand (above n,
/// chosen to cancel a term, shorter or longer than 32 bytes). Both verifiers read the bytes given,
/// not `byteCount`.
struct RawDigest: Digest {
    static let byteCount = 32
    let bytes: [UInt8]

    init(_ value: P256Limbs) { bytes = value.bigEndianBytes }
    init(bytes: [UInt8]) { self.bytes = bytes }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { try bytes.withUnsafeBytes(body) }
    func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }
    var description: String { bytes.map { String(format: "%02x", $0) }.joined() }
}
