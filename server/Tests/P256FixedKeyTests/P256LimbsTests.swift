import EntitleCore
import Testing

@testable import P256FixedKey

@Suite("P256Limbs")
struct P256LimbsTests {
    /// Comparison limb by limb, most significant first: a reference that doesn't subtract.
    static func less(_ a: P256Limbs, _ b: P256Limbs) -> Bool {
        (a.w3, a.w2, a.w1, a.w0) < (b.w3, b.w2, b.w1, b.w0)
    }

    @Test("32 big-endian bytes read into limbs, least significant first, and back")
    func bigEndian() {
        let bytes = (0..<32).map { UInt8($0) }
        let value = bytes.withUnsafeBytes { P256Limbs(bigEndian: $0) }
        #expect(value == P256Limbs(w0: 0x1819_1A1B_1C1D_1E1F, w1: 0x1011_1213_1415_1617, w2: 0x0809_0A0B_0C0D_0E0F, w3: 0x0001_0203_0405_0607))
        #expect(value.bigEndianBytes == bytes)
        let shifted = ([0xAA] + bytes).withUnsafeBytes { P256Limbs(bigEndian: $0, at: 1) }
        #expect(shifted == value)
    }

    @Test("Sums and differences carry and borrow through every limb", arguments: 0..<4)
    func carries(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let all = P256Limbs(w0: .max, w1: .max, w2: .max, w3: .max)
        for index in 0..<500 {
            var a = P256Samples.limbs(&random), b = P256Samples.limbs(&random)
            if index % 5 == 0 { a = P256Limbs(w0: a.w0, w1: .max, w2: .max, w3: a.w3) }
            if index % 7 == 0 { b = a }
            let (sum, carry) = a.addingReportingCarry(b)
            let complement = P256Limbs(w0: ~a.w0, w1: ~a.w1, w2: ~a.w2, w3: ~a.w3)
            #expect(carry == Self.less(complement, b))
            let (back, borrow) = sum.subtractingReportingBorrow(b)
            #expect(back == a)
            #expect(borrow == carry)
            #expect(a.isLess(than: b) == Self.less(a, b))
        }
        #expect(all.addingReportingCarry(P256Samples.one) == (P256Limbs.zero, true))
        #expect(P256Limbs.zero.subtractingReportingBorrow(P256Samples.one) == (all, true))
    }

    @Test("Any window of up to 8 bits reads as the bits one by one say; past bit 255 reads 0")
    func bits() {
        var random = SeededGenerator(seed: 9)
        for _ in 0..<200 {
            let value = P256Samples.limbs(&random)
            let bytes = value.bigEndianBytes
            func bit(_ index: Int) -> Int { index > 255 ? 0 : Int(bytes[31 - index / 8] >> UInt8(index % 8)) & 1 }
            for _ in 0..<20 {
                let position = Int.random(in: 0..<262, using: &random), count = Int.random(in: 1...8, using: &random)
                let expected = (0..<count).reduce(0) { $0 | bit(position + $1) << $1 }
                #expect(value.bits(at: position, count: count) == expected, "\(position) \(count)")
            }
        }
    }

    @Test("Sums and differences modulo m stay below m and undo each other, at m's edges too")
    func modular() {
        var random = SeededGenerator(seed: 3)
        for modulus in [P256Samples.p, P256Samples.n] {
            let top = modulus.subtractingReportingBorrow(P256Samples.one).difference
            #expect(top.adding(P256Samples.one, modulo: modulus) == .zero)
            #expect(P256Limbs.zero.subtracting(P256Samples.one, modulo: modulus) == top)
            #expect(top.adding(top, modulo: modulus) == top.subtracting(P256Samples.one, modulo: modulus))
            for _ in 0..<300 {
                let a = P256Samples.below(modulus, &random), b = P256Samples.below(modulus, &random)
                let sum = a.adding(b, modulo: modulus)
                #expect(sum.isLess(than: modulus))
                #expect(sum.subtracting(b, modulo: modulus) == a)
                #expect(b.subtracting(a, modulo: modulus).adding(a, modulo: modulus) == b)
            }
        }
    }

    @Test("selecting takes the other value exactly when asked")
    func selecting() {
        let a = P256Limbs(w0: 1, w1: 2, w2: 3, w3: 4), b = P256Limbs(w0: 5, w1: 6, w2: 7, w3: .max)
        #expect(a.selecting(b, if: true) == b)
        #expect(a.selecting(b, if: false) == a)
    }
}
