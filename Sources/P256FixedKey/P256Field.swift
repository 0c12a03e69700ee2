/// Arithmetic modulo P-256's field prime p = 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1, in Montgomery form: a value
/// `a` is held as `a·2²⁵⁶ mod p`, so a product costs one Montgomery reduction, which p's shape makes
/// two multiplications a limb (`−p⁻¹ ≡ 1 mod 2⁶⁴`, p's low limb 2⁶⁴ − 1, its third 0).
///
/// Every operation takes and returns fully reduced values (`< p`), so equal values have equal limbs.
/// Nothing here is constant-time: it verifies signatures, whose inputs are public.
enum P256Field {
    @inline(__always)
    static var p: P256Limbs { P256Limbs(w0: 0xFFFF_FFFF_FFFF_FFFF, w1: 0x0000_0000_FFFF_FFFF, w2: 0, w3: 0xFFFF_FFFF_0000_0001) }
    /// 1 in Montgomery form, `2²⁵⁶ mod p`.
    @inline(__always)
    static var one: P256Limbs { P256Limbs(w0: 1, w1: 0xFFFF_FFFF_0000_0000, w2: 0xFFFF_FFFF_FFFF_FFFF, w3: 0x0000_0000_FFFF_FFFE) }
    /// `2⁵¹² mod p`: multiplying by it puts a value into Montgomery form.
    @inline(__always)
    static var rSquared: P256Limbs { P256Limbs(w0: 3, w1: 0xFFFF_FFFB_FFFF_FFFF, w2: 0xFFFF_FFFF_FFFF_FFFE, w3: 0x0000_0004_FFFF_FFFD) }

    @inline(__always)
    static func montgomery(_ value: P256Limbs) -> P256Limbs { multiply(value, rSquared) }

    @inline(__always)
    static func add(_ a: P256Limbs, _ b: P256Limbs) -> P256Limbs { a.adding(b, modulo: p) }

    @inline(__always)
    static func subtract(_ a: P256Limbs, _ b: P256Limbs) -> P256Limbs { a.subtracting(b, modulo: p) }

    @inline(__always)
    static func negate(_ a: P256Limbs) -> P256Limbs { a.isZero ? a : p.subtractingReportingBorrow(a).difference }

    @inline(__always)
    static func square(_ a: P256Limbs) -> P256Limbs { multiply(a, a) }

    /// `a·b·2⁻²⁵⁶ mod p`.
    @inline(__always)
    static func multiply(_ a: P256Limbs, _ b: P256Limbs) -> P256Limbs {
        var t = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        row(a, b.w0, &t.0, &t.1, &t.2, &t.3, &t.4)
        row(a, b.w1, &t.0, &t.1, &t.2, &t.3, &t.4)
        row(a, b.w2, &t.0, &t.1, &t.2, &t.3, &t.4)
        row(a, b.w3, &t.0, &t.1, &t.2, &t.3, &t.4)
        return P256Limbs(w0: t.0, w1: t.1, w2: t.2, w3: t.3).reducedOnce(modulo: p, carry: t.4 != 0)
    }

    /// `a⁻¹` for `a ≠ 0` in Montgomery form (Fermat: `a^(p−2)`); for building tables, not per signature.
    static func inverse(_ a: P256Limbs) -> P256Limbs {
        let exponent = P256Limbs(w0: 0xFFFF_FFFF_FFFF_FFFD, w1: 0x0000_0000_FFFF_FFFF, w2: 0, w3: 0xFFFF_FFFF_0000_0001)
        var result = one
        for bit in stride(from: 255, through: 0, by: -1) {
            result = square(result)
            if exponent.bits(at: bit, count: 1) == 1 { result = multiply(result, a) }
        }
        return result
    }

    /// One row: `t += a·b`, then `t + m·p` with `m = t₀` shifted down a limb.
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
        // t₀ + m·(2⁶⁴ − 1) = m·2⁶⁴: the low limb clears and carries m.
        let m = t0
        (carry, t0) = P256Limbs.multiplyAdd(m, 0x0000_0000_FFFF_FFFF, t1, m)
        (carry, t1) = P256Limbs.multiplyAdd(0, 0, t2, carry)
        (carry, t2) = P256Limbs.multiplyAdd(m, 0xFFFF_FFFF_0000_0001, t3, carry)
        let limbs = top &+ UInt128(carry)
        t3 = UInt64(truncatingIfNeeded: limbs)
        t4 = UInt64(truncatingIfNeeded: limbs >> 64)
    }
}
