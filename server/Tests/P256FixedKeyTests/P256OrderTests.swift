import EntitleCore
import Testing

@testable import P256FixedKey

@Suite("P256Order")
struct P256OrderTests {
    @Test("n, 1 and 2⁵¹² in Montgomery form, and −n⁻¹ mod 2⁶⁴, are what n's definition gives")
    func constants() {
        #expect(P256Order.n == P256Samples.n)
        let powers = P256Samples.powersOfTwo(modulo: P256Samples.n)
        #expect(P256Order.one == powers.r)
        #expect(P256Order.rSquared == powers.rSquared)
        #expect(P256Order.n.w0 &* P256Order.inverse0 == .max)
    }

    @Test("Products equal the doubling-and-adding reference, edges and random", arguments: 0..<4)
    func products(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let top = P256Samples.n.subtractingReportingBorrow(P256Samples.one).difference
        let values = [.zero, P256Samples.one, top, P256Limbs(w0: 0, w1: 0, w2: 0, w3: 1 << 63)]
            + (0..<40).map { _ in P256Samples.below(P256Samples.n, &random) }
        for a in values {
            for b in values.shuffled(using: &random).prefix(8) {
                #expect(P256Samples.scalarProduct(a, b) == P256Samples.product(a, b, modulo: P256Samples.n))
            }
        }
    }

    @Test("Inverses: a·a⁻¹ = 1, (n − 1)⁻¹ = n − 1")
    func inverses() {
        var random = SeededGenerator(seed: 12)
        for a in (0..<50).map({ _ in P256Samples.below(P256Samples.n, &random) }) + [P256Samples.one] {
            let m = P256Order.montgomery(a)
            #expect(P256Order.multiply(m, P256Order.inverse(m)) == P256Order.one)
        }
        let top = P256Samples.n.subtractingReportingBorrow(P256Samples.one).difference
        #expect(P256Samples.plainScalar(P256Order.inverse(P256Order.montgomery(top))) == top)
    }

    @Test("The binary inverse agrees with the exponentiation, across long runs of zero bits too", arguments: 0..<3)
    func binaryInverse(seed: UInt64) {
        var random = SeededGenerator(seed: 13 + seed)
        let top = P256Samples.n.subtractingReportingBorrow(P256Samples.one).difference
        // Powers of two up to 2²⁵⁵ (a limb or more of zeros at once), values with a zero low limb, the edges.
        let powers = (0..<256).map { P256CombTableTests.power(of: $0) }
        let sparse = (0..<20).map { _ in
            var value = P256Samples.below(P256Samples.n, &random)
            value.w0 = 0
            if Bool.random(using: &random) { value.w1 = 0 }
            return value
        }
        for a in powers + sparse + [P256Samples.one, top] + (0..<100).map({ _ in P256Samples.below(P256Samples.n, &random) }) {
            let inverse = P256Order.inverseVariableTime(a)
            #expect(inverse.isLess(than: P256Samples.n))
            #expect(P256Samples.scalarProduct(a, inverse) == P256Samples.one, "\(a)")
            #expect(inverse == P256Samples.plainScalar(P256Order.inverse(P256Order.montgomery(a))))
        }
        #expect(P256Order.inverseVariableTime(.zero) == .zero)
    }

    @Test("Any 256-bit value reduces below n by at most one subtraction")
    func reduced() {
        let all = P256Limbs(w0: .max, w1: .max, w2: .max, w3: .max)
        #expect(P256Order.reduced(all) == all.subtractingReportingBorrow(P256Samples.n).difference)
        #expect(P256Order.reduced(P256Samples.n) == .zero)
        #expect(P256Order.reduced(P256Samples.one) == P256Samples.one)
    }
}
