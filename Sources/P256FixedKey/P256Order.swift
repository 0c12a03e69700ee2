/// Arithmetic modulo the order n of P-256's group, in Montgomery form (`a` held as `a·2²⁵⁶ mod n`):
/// what a verification does with `r`, `s` and the digest.
///
/// Every operation takes and returns fully reduced values (`< n`). Not constant-time: signatures
/// and digests are public.
enum P256Order {
    @inline(__always)
    static var n: P256Limbs { P256Limbs(w0: 0xF3B9_CAC2_FC63_2551, w1: 0xBCE6_FAAD_A717_9E84, w2: 0xFFFF_FFFF_FFFF_FFFF, w3: 0xFFFF_FFFF_0000_0000) }
    /// 1 in Montgomery form, `2²⁵⁶ mod n`.
    @inline(__always)
    static var one: P256Limbs { P256Limbs(w0: 0x0C46_353D_039C_DAAF, w1: 0x4319_0552_58E8_617B, w2: 0, w3: 0x0000_0000_FFFF_FFFF) }
    /// `2⁵¹² mod n`.
    @inline(__always)
    static var rSquared: P256Limbs { P256Limbs(w0: 0x8324_4C95_BE79_EEA2, w1: 0x4699_799C_49BD_6FA6, w2: 0x2845_B239_2B6B_EC59, w3: 0x66E1_2D94_F3D9_5620) }
    /// `−n⁻¹ mod 2⁶⁴`.
    static let inverse0: UInt64 = 0xCCD1_C8AA_EE00_BC4F

    @inline(__always)
    static func montgomery(_ value: P256Limbs) -> P256Limbs { multiply(value, rSquared) }

    /// `value mod n` for any 256-bit value (every one is below 2n).
    @inline(__always)
    static func reduced(_ value: P256Limbs) -> P256Limbs { value.reducedOnce(modulo: n) }

    /// `a·b·2⁻²⁵⁶ mod n`.
    @inline(__always)
    static func multiply(_ a: P256Limbs, _ b: P256Limbs) -> P256Limbs {
        var t = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        row(a, b.w0, &t.0, &t.1, &t.2, &t.3, &t.4)
        row(a, b.w1, &t.0, &t.1, &t.2, &t.3, &t.4)
        row(a, b.w2, &t.0, &t.1, &t.2, &t.3, &t.4)
        row(a, b.w3, &t.0, &t.1, &t.2, &t.3, &t.4)
        return P256Limbs(w0: t.0, w1: t.1, w2: t.2, w3: t.3).reducedOnce(modulo: n, carry: t.4 != 0)
    }

    /// `a⁻¹` for `a ≠ 0`, in Montgomery form (Fermat: `a^(n−2)`, 4-bit windows).
    static func inverse(_ a: P256Limbs) -> P256Limbs {
        let exponent = P256Limbs(w0: 0xF3B9_CAC2_FC63_254F, w1: 0xBCE6_FAAD_A717_9E84, w2: 0xFFFF_FFFF_FFFF_FFFF, w3: 0xFFFF_FFFF_0000_0000)
        return withUnsafeTemporaryAllocation(of: P256Limbs.self, capacity: 16) { powers in
            powers[0] = one
            for index in 1..<16 { powers[index] = multiply(powers[index - 1], a) }
            var result = one
            for window in stride(from: 63, through: 0, by: -1) {
                if window != 63 { for _ in 0..<4 { result = multiply(result, result) } }
                let digit = exponent.bits(at: window * 4, count: 4)
                if digit != 0 { result = multiply(result, powers[digit]) }
            }
            return result
        }
    }

    /// One row of the product (coarsely integrated operand scanning).
    @inline(__always)
    private static func row(
        _ a: P256Limbs, _ b: UInt64,
        _ t0: inout UInt64, _ t1: inout UInt64, _ t2: inout UInt64, _ t3: inout UInt64, _ t4: inout UInt64
    ) {
        var carry: UInt64
        (carry, t0) = P256Limbs.multiplyAdd(a.w0, b, t0, 0)
        (carry, t1) = P256Limbs.multiplyAdd(a.w1, b, t1, carry)
        (carry, t2) = P256Limbs.multiplyAdd(a.w2, b, t2, carry)
        (carry, t3) = P256Limbs.multiplyAdd(a.w3, b, t3, carry)
        let top = UInt128(t4) &+ UInt128(carry)
        let m = t0 &* inverse0
        (carry, _) = P256Limbs.multiplyAdd(m, n.w0, t0, 0)
        (carry, t0) = P256Limbs.multiplyAdd(m, n.w1, t1, carry)
        (carry, t1) = P256Limbs.multiplyAdd(m, n.w2, t2, carry)
        (carry, t2) = P256Limbs.multiplyAdd(m, n.w3, t3, carry)
        let limbs = top &+ UInt128(carry)
        t3 = UInt64(truncatingIfNeeded: limbs)
        t4 = UInt64(truncatingIfNeeded: limbs >> 64)
    }
}
