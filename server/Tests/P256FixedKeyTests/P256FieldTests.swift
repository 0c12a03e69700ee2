import EntitleCore
import Testing

@testable import P256FixedKey

@Suite("P256Field")
struct P256FieldTests {
    /// Edge values: 0, 1, 2, p − 1, p − 2, 2²⁵⁵, every limb full but the top.
    static let edges: [P256Limbs] = [
        .zero, P256Samples.one, P256Limbs(w0: 2, w1: 0, w2: 0, w3: 0),
        P256Samples.p.subtractingReportingBorrow(P256Samples.one).difference,
        P256Samples.p.subtractingReportingBorrow(P256Limbs(w0: 2, w1: 0, w2: 0, w3: 0)).difference,
        P256Limbs(w0: 0, w1: 0, w2: 0, w3: 1 << 63), P256Limbs(w0: .max, w1: .max, w2: .max, w3: 0),
    ]

    @Test("p, 1 and 2⁵¹² in Montgomery form are what p's definition and doubling give")
    func constants() {
        #expect(P256Field.p == P256Samples.p)
        let powers = P256Samples.powersOfTwo(modulo: P256Samples.p)
        #expect(P256Field.one == powers.r)
        #expect(P256Field.rSquared == powers.rSquared)
        #expect(P256Field.montgomery(P256Samples.one) == P256Field.one)
    }

    @Test("Products equal the doubling-and-adding reference, edges and random", arguments: 0..<4)
    func products(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let values = Self.edges + (0..<40).map { _ in P256Samples.below(P256Samples.p, &random) }
        for a in values {
            for b in values.shuffled(using: &random).prefix(8) {
                let product = P256Field.multiply(P256Field.montgomery(a), P256Field.montgomery(b))
                #expect(P256Field.multiply(product, P256Samples.one) == P256Samples.product(a, b, modulo: P256Samples.p))
            }
            #expect(P256Field.multiply(P256Field.montgomery(a), P256Samples.one) == a)
        }
    }

    @Test("Inverses, negations and (−1)² = 1")
    func inverses() {
        var random = SeededGenerator(seed: 11)
        for a in Self.edges.dropFirst() + (0..<50).map({ _ in P256Samples.below(P256Samples.p, &random) }) {
            let m = P256Field.montgomery(a)
            #expect(P256Field.multiply(m, P256Field.inverse(m)) == P256Field.one)
            #expect(P256Field.add(m, P256Field.negate(m)) == .zero)
            #expect(P256Field.subtract(m, m) == .zero)
        }
        #expect(P256Field.negate(.zero) == .zero)
        let minusOne = P256Field.negate(P256Field.one)
        #expect(P256Field.square(minusOne) == P256Field.one)
    }
}
