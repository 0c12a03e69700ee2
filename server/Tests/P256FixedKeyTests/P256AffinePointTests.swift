import Crypto
import EntitleCore
import Testing

@testable import P256FixedKey

@Suite("P256AffinePoint")
struct P256AffinePointTests {
    @Test("The generator is swift-crypto's public key for the private key 1")
    func generator() {
        #expect(P256Samples.x963(P256AffinePoint.generator) == P256Samples.publicPoint(P256Samples.one))
    }

    @Test("Points off the curve, coordinates not below p and other encodings are refused")
    func validation() {
        let encoded = P256Samples.publicPoint(P256Limbs(w0: 7, w1: 0, w2: 0, w3: 0))
        #expect(P256AffinePoint(x963: encoded) != nil)
        var offCurve = encoded
        offCurve[64] ^= 1
        #expect(P256AffinePoint(x963: offCurve) == nil)
        var compressed = encoded
        compressed[0] = 3
        #expect(P256AffinePoint(x963: compressed) == nil)
        #expect(P256AffinePoint(x963: Array(encoded.dropLast())) == nil)
        // x + p is the same x modulo p, but no coordinate may be p or above.
        let x = encoded.dropFirst().prefix(32).withUnsafeBytes { P256Limbs(bigEndian: $0) }
        let y = encoded.suffix(32).withUnsafeBytes { P256Limbs(bigEndian: $0) }
        let (xPlusP, carry) = x.addingReportingCarry(P256Samples.p)
        if !carry { #expect(P256AffinePoint(standardX: xPlusP, y: y) == nil) }
        #expect(P256AffinePoint(standardX: P256Samples.p, y: y) == nil)
        #expect(P256AffinePoint(standardX: x, y: y) != nil)
    }

    @Test("Several points made affine at once equal each made affine alone; one at infinity makes none")
    func batch() throws {
        let table = P256CombTable.generator
        let points = (1...9).map { table.multiply(P256Limbs(w0: UInt64($0 * 1_000_003), w1: 0, w2: 0, w3: 0)) }
        let together = try #require(P256AffinePoint.batch(points))
        for (point, affine) in zip(points, together) {
            #expect(P256Samples.x963(affine) == P256Samples.x963(point))
        }
        #expect(P256AffinePoint.batch(points + [.infinity]) == nil)
    }
}

extension P256AffinePoint: Equatable {
    public static func == (lhs: P256AffinePoint, rhs: P256AffinePoint) -> Bool { lhs.x == rhs.x && lhs.y == rhs.y }
}
