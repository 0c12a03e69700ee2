import EntitleCore
import Testing

@testable import P256FixedKey

@Suite("P256CombTable")
struct P256CombTableTests {
    static func power(of two: Int) -> P256Limbs {
        var value = P256Limbs.zero
        switch two / 64 {
        case 0: value.w0 = 1 << UInt64(two % 64)
        case 1: value.w1 = 1 << UInt64(two % 64)
        case 2: value.w2 = 1 << UInt64(two % 64)
        default: value.w3 = 1 << UInt64(two % 64)
        }
        return value
    }

    /// Scalars at the windows' edges: digits of 64 and 65 (a carry), 127 and 128, the top window's
    /// bits, n − 1 (−G) and n − 2.
    static let edges: [P256Limbs] = [1, 2, 63, 64, 65, 127, 128, 129, 64 << 7, 65 << 7, 8_191, 8_192].map {
        P256Limbs(w0: $0, w1: 0, w2: 0, w3: 0)
    } + [power(of: 252), power(of: 255), P256Limbs(w0: .max, w1: .max, w2: .max, w3: 0x0FFF_FFFF_FFFF_FFFF)]
        + [1, 2].map { P256Samples.n.subtractingReportingBorrow(P256Limbs(w0: $0, w1: 0, w2: 0, w3: 0)).difference }

    @Test("k·G from the generator's table is swift-crypto's public key for k, edges and random")
    func generator() {
        var random = SeededGenerator(seed: 21)
        for k in Self.edges + (0..<30).map({ _ in P256Samples.below(P256Samples.n, &random) }) {
            #expect(P256Samples.x963(P256CombTable.generator.multiply(k)) == P256Samples.publicPoint(k), "\(k)")
        }
        #expect(P256CombTable.generator.multiply(.zero).isInfinity)
        #expect(P256CombTable.generator.multiply(P256Samples.n).isInfinity)
    }

    @Test("k·Q from a key's table is (k·d)·G, d the key's private scalar", arguments: [31, 32] as [UInt64])
    func key(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let d = P256Samples.below(P256Samples.n, &random)
        let point = try #require(P256AffinePoint(x963: P256Samples.publicPoint(d)))
        let table = try #require(P256CombTable(point))
        for k in Self.edges + (0..<10).map({ _ in P256Samples.below(P256Samples.n, &random) }) {
            #expect(P256Samples.x963(table.multiply(k)) == P256Samples.publicPoint(P256Samples.scalarProduct(k, d)), "\(k)")
        }
    }

    @Test("The digits are in −64…64 and add up to the scalar, with no carry out of the top window")
    func digits() {
        var random = SeededGenerator(seed: 22)
        for scalar in Self.edges + [P256Limbs(w0: .max, w1: .max, w2: .max, w3: .max)] + (0..<200).map({ _ in P256Samples.limbs(&random) }) {
            var carry = 0
            var sum = P256Limbs.zero
            for window in 0..<P256CombTable.windows {
                let digit = P256CombTable.digit(of: scalar, window: window, carry: &carry)
                #expect((-64...64).contains(digit))
                // |digit|·2⁷ⁱ, added or taken away modulo 2²⁵⁶.
                var term = P256Limbs.zero
                for bit in 0..<7 where abs(digit) >> bit & 1 == 1 && window * 7 + bit < 256 {
                    term = term.addingReportingCarry(Self.power(of: window * 7 + bit)).sum
                }
                sum = digit < 0 ? sum.subtractingReportingBorrow(term).difference : sum.addingReportingCarry(term).sum
            }
            #expect(carry == 0)
            #expect(sum == scalar)
        }
    }
}
