import EntitleCore
import Testing

@testable import P256FixedKey

@Suite("P256Point")
struct P256PointTests {
    static func scalar(_ value: UInt64) -> P256Limbs { P256Limbs(w0: value, w1: 0, w2: 0, w3: 0) }

    @Test("Doubling G gives 2·G, and doubling again 4·G, as swift-crypto computes them")
    func doubling() {
        let g = P256Point(.generator)
        #expect(P256Samples.x963(g.doubled()) == P256Samples.publicPoint(Self.scalar(2)))
        #expect(P256Samples.x963(g.doubled().doubled()) == P256Samples.publicPoint(Self.scalar(4)))
        #expect(P256Point.infinity.doubled().isInfinity)
    }

    @Test("Adding handles infinity, equal points and opposite points", arguments: [1, 2, 3, 1_000, 123_456_789] as [UInt64])
    func addition(k: UInt64) {
        let point = P256CombTable.generator.multiply(Self.scalar(k))
        let affine = P256Samples.affine(point)
        #expect(P256Samples.x963(P256Point.infinity.adding(affine)) == P256Samples.x963(point))
        #expect(P256Samples.x963(point.adding(affine)) == P256Samples.x963(point.doubled()))
        #expect(P256Samples.x963(point.adding(affine)) == P256Samples.publicPoint(Self.scalar(2 * k)))
        #expect(point.adding(affine.negated).isInfinity)
        let g = P256AffinePoint.generator
        #expect(P256Samples.x963(point.adding(g)) == P256Samples.publicPoint(Self.scalar(k + 1)))
    }

    @Test("Sums of random multiples equal swift-crypto's point for the sum of their scalars")
    func randomSums() {
        var random = SeededGenerator(seed: 5)
        let table = P256CombTable.generator
        for _ in 0..<20 {
            let a = P256Samples.below(P256Samples.n, &random), b = P256Samples.below(P256Samples.n, &random)
            let sum = a.adding(b, modulo: P256Samples.n)
            guard !sum.isZero else { continue }
            let point = table.multiply(a).adding(P256Samples.affine(table.multiply(b)))
            #expect(P256Samples.x963(point) == P256Samples.publicPoint(sum))
        }
    }
}
