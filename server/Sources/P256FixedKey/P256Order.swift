/// The order n of P-256's group: what a verification does with `r`, `s` and the digest.
enum P256Order: P256MontgomeryModulus {
    @inline(__always)
    static var n: P256Limbs { P256Limbs(w0: 0xF3B9_CAC2_FC63_2551, w1: 0xBCE6_FAAD_A717_9E84, w2: 0xFFFF_FFFF_FFFF_FFFF, w3: 0xFFFF_FFFF_0000_0000) }
    @inline(__always)
    static var modulus: P256Limbs { n }
    @inline(__always)
    static var one: P256Limbs { P256Limbs(w0: 0x0C46_353D_039C_DAAF, w1: 0x4319_0552_58E8_617B, w2: 0, w3: 0x0000_0000_FFFF_FFFF) }
    @inline(__always)
    static var rSquared: P256Limbs { P256Limbs(w0: 0x8324_4C95_BE79_EEA2, w1: 0x4699_799C_49BD_6FA6, w2: 0x2845_B239_2B6B_EC59, w3: 0x66E1_2D94_F3D9_5620) }
    /// `−n⁻¹ mod 2⁶⁴`.
    static let inverse0: UInt64 = 0xCCD1_C8AA_EE00_BC4F

    /// `value mod n` for any 256-bit value (every one is below 2n).
    @inline(__always)
    static func reduced(_ value: P256Limbs) -> P256Limbs { value.reducedOnce(modulo: n) }

    /// `a⁻¹ mod n` for a plain `a` in 1…n − 1, plain (0 for 0), by the binary extended Euclidean
    /// algorithm: about half the time of ``inverse(_:)``'s exponentiation. Variable-time.
    ///
    /// Keeps `x₁·a ≡ u` and `x₂·a ≡ v (mod n)` from `u = a, v = n`: the even one of `u`, `v` loses its
    /// trailing zeros (its `x` multiplied by 2⁻ᵏ), then the smaller is taken from the larger, until one
    /// is 1. `gcd(u, v)` stays `gcd(a, n) = 1`, so they are never equal above 1.
    static func inverseVariableTime(_ a: P256Limbs) -> P256Limbs {
        guard !a.isZero else { return .zero }
        // 1 itself, not `one` (which is 1 in Montgomery form).
        let plainOne = P256Limbs(w0: 1, w1: 0, w2: 0, w3: 0)
        var (u, v) = (a, n)
        var (x1, x2) = (plainOne, P256Limbs.zero)
        while true {
            stripTrailingZeros(&u, &x1)
            if u == plainOne { return x1 }
            stripTrailingZeros(&v, &x2)
            if v == plainOne { return x2 }
            let (difference, borrow) = u.subtractingReportingBorrow(v)
            if borrow {
                v = v.subtractingReportingBorrow(u).difference
                x2 = x2.subtracting(x1, modulo: n)
            } else {
                u = difference
                x1 = x1.subtracting(x2, modulo: n)
            }
        }
    }

    /// `value` without its trailing zero bits (`value ≠ 0`), and `x·2⁻ᵏ mod n` for the `k` removed.
    @inline(__always)
    private static func stripTrailingZeros(_ value: inout P256Limbs, _ x: inout P256Limbs) {
        while value.w0 == 0 {
            value = value.shiftedRightOneLimb
            x = halved(halved(x, 32), 32)
        }
        let count = value.w0.trailingZeroBitCount
        guard count > 0 else { return }
        value = value.shiftedRight(count)
        x = halved(x, count)
    }

    /// `x·2⁻ᵏ mod n` for `x < n`, `k` in 1…63: `x + m·n` with the `m < 2ᵏ` that clears its low `k` bits,
    /// shifted right; below n already, as `x + m·n < n + (2ᵏ − 1)·n = 2ᵏ·n`.
    @inline(__always)
    private static func halved(_ x: P256Limbs, _ count: Int) -> P256Limbs {
        let m = (x.w0 &* inverse0) & ((1 << UInt64(count)) &- 1)
        var carry: UInt64
        var t = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        (carry, t.0) = P256Limbs.multiplyAdd(m, n.w0, x.w0, 0)
        (carry, t.1) = P256Limbs.multiplyAdd(m, n.w1, x.w1, carry)
        (carry, t.2) = P256Limbs.multiplyAdd(m, n.w2, x.w2, carry)
        (carry, t.3) = P256Limbs.multiplyAdd(m, n.w3, x.w3, carry)
        var shifted = P256Limbs(w0: t.0, w1: t.1, w2: t.2, w3: t.3).shiftedRight(count)
        shifted.w3 |= carry << UInt64(64 - count)
        return shifted
    }

    @inline(__always)
    static func reduce(_ t0: inout UInt64, _ t1: inout UInt64, _ t2: inout UInt64, _ t3: inout UInt64, top: UInt128) -> UInt64 {
        let k = t0 &* inverse0
        var carry: UInt64
        (carry, _) = P256Limbs.multiplyAdd(k, n.w0, t0, 0)
        (carry, t0) = P256Limbs.multiplyAdd(k, n.w1, t1, carry)
        (carry, t1) = P256Limbs.multiplyAdd(k, n.w2, t2, carry)
        (carry, t2) = P256Limbs.multiplyAdd(k, n.w3, t3, carry)
        let limbs = top &+ UInt128(carry)
        t3 = UInt64(truncatingIfNeeded: limbs)
        return UInt64(truncatingIfNeeded: limbs >> 64)
    }
}
