/// A 256-bit unsigned integer as four 64-bit limbs, least significant first: the values of P-256's
/// field and scalar arithmetic (``P256MontgomeryModulus``).
struct P256Limbs: Equatable, Sendable {
    var w0: UInt64
    var w1: UInt64
    var w2: UInt64
    var w3: UInt64

    static let zero = P256Limbs(w0: 0, w1: 0, w2: 0, w3: 0)

    init(w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64) {
        (self.w0, self.w1, self.w2, self.w3) = (w0, w1, w2, w3)
    }

    /// Reads 32 big-endian bytes starting at `offset`.
    init(bigEndian bytes: UnsafeRawBufferPointer, at offset: Int = 0) {
        precondition(bytes.count >= offset + 32)
        func word(_ index: Int) -> UInt64 {
            var value: UInt64 = 0
            for byte in bytes[(offset + index * 8)..<(offset + index * 8 + 8)] { value = value << 8 | UInt64(byte) }
            return value
        }
        self.init(w0: word(3), w1: word(2), w2: word(1), w3: word(0))
    }

    /// The 32 big-endian bytes.
    var bigEndianBytes: [UInt8] {
        [w3, w2, w1, w0].flatMap { word in (0..<8).reversed().map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) } }
    }

    var isZero: Bool { (w0 | w1 | w2 | w3) == 0 }

    /// Whether `self < other`.
    @inline(__always)
    func isLess(than other: P256Limbs) -> Bool {
        subtractingReportingBorrow(other).borrow
    }

    @inline(__always)
    func addingReportingCarry(_ other: P256Limbs) -> (sum: P256Limbs, carry: Bool) {
        var sum = UInt128(w0) &+ UInt128(other.w0)
        let s0 = UInt64(truncatingIfNeeded: sum)
        sum = (sum >> 64) &+ UInt128(w1) &+ UInt128(other.w1)
        let s1 = UInt64(truncatingIfNeeded: sum)
        sum = (sum >> 64) &+ UInt128(w2) &+ UInt128(other.w2)
        let s2 = UInt64(truncatingIfNeeded: sum)
        sum = (sum >> 64) &+ UInt128(w3) &+ UInt128(other.w3)
        return (P256Limbs(w0: s0, w1: s1, w2: s2, w3: UInt64(truncatingIfNeeded: sum)), sum >> 64 != 0)
    }

    @inline(__always)
    func subtractingReportingBorrow(_ other: P256Limbs) -> (difference: P256Limbs, borrow: Bool) {
        var difference = UInt128(w0) &- UInt128(other.w0)
        let d0 = UInt64(truncatingIfNeeded: difference)
        difference = UInt128(w1) &- UInt128(other.w1) &- (difference >> 127)
        let d1 = UInt64(truncatingIfNeeded: difference)
        difference = UInt128(w2) &- UInt128(other.w2) &- (difference >> 127)
        let d2 = UInt64(truncatingIfNeeded: difference)
        difference = UInt128(w3) &- UInt128(other.w3) &- (difference >> 127)
        return (P256Limbs(w0: d0, w1: d1, w2: d2, w3: UInt64(truncatingIfNeeded: difference)), difference >> 127 != 0)
    }

    /// `condition ? other : self`, without a branch.
    @inline(__always)
    func selecting(_ other: P256Limbs, if condition: Bool) -> P256Limbs {
        let mask = 0 &- UInt64(condition ? 1 : 0)
        return P256Limbs(
            w0: w0 ^ ((w0 ^ other.w0) & mask), w1: w1 ^ ((w1 ^ other.w1) & mask),
            w2: w2 ^ ((w2 ^ other.w2) & mask), w3: w3 ^ ((w3 ^ other.w3) & mask))
    }

    /// `(self + other) mod modulus` for `self, other < modulus`.
    @inline(__always)
    func adding(_ other: P256Limbs, modulo modulus: P256Limbs) -> P256Limbs {
        let (sum, carry) = addingReportingCarry(other)
        return sum.reducedOnce(modulo: modulus, carry: carry)
    }

    /// `(self − other) mod modulus` for `self, other < modulus`.
    @inline(__always)
    func subtracting(_ other: P256Limbs, modulo modulus: P256Limbs) -> P256Limbs {
        let (difference, borrow) = subtractingReportingBorrow(other)
        let addend = P256Limbs.zero.selecting(modulus, if: borrow)
        return difference.addingReportingCarry(addend).sum
    }

    /// `self` less `modulus` once if it is at least `modulus`; `carry` is a 257th bit.
    @inline(__always)
    func reducedOnce(modulo modulus: P256Limbs, carry: Bool = false) -> P256Limbs {
        let (difference, borrow) = subtractingReportingBorrow(modulus)
        return self.selecting(difference, if: carry || !borrow)
    }

    /// `a·b + c + d` as two limbs (it can't overflow 128 bits).
    @inline(__always)
    static func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (high: UInt64, low: UInt64) {
        let value = UInt128(a) &* UInt128(b) &+ UInt128(c) &+ UInt128(d)
        return (UInt64(truncatingIfNeeded: value >> 64), UInt64(truncatingIfNeeded: value))
    }

    /// `self >> count` for `count` in 1…63.
    @inline(__always)
    func shiftedRight(_ count: Int) -> P256Limbs {
        let (right, left) = (UInt64(count), UInt64(64 - count))
        return P256Limbs(w0: w0 >> right | w1 << left, w1: w1 >> right | w2 << left, w2: w2 >> right | w3 << left, w3: w3 >> right)
    }

    /// `self >> 64`.
    @inline(__always)
    var shiftedRightOneLimb: P256Limbs { P256Limbs(w0: w1, w1: w2, w2: w3, w3: 0) }

    /// The `count` bits (at most 8) starting at bit `position`; bits past 255 read as zero.
    @inline(__always)
    func bits(at position: Int, count: Int) -> Int {
        guard position < 256 else { return 0 }
        let limb = position >> 6, shift = position & 63
        var value = self[limb] >> UInt64(shift)
        if shift + count > 64, limb < 3 { value |= self[limb + 1] << UInt64(64 - shift) }
        return Int(value & ((1 << UInt64(count)) - 1))
    }

    @inline(__always)
    subscript(limb: Int) -> UInt64 {
        switch limb {
        case 0: w0
        case 1: w1
        case 2: w2
        default: w3
        }
    }
}
