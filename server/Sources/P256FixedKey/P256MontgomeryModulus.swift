/// Montgomery arithmetic modulo one of P-256's two primes (``P256Field``'s p, ``P256Order``'s n): a value
/// `a` is held as `a·2²⁵⁶ mod m`, so a product costs one Montgomery reduction. A modulus gives its
/// constants and one reduction step; the operations here are specialized for each.
///
/// Every operation takes and returns fully reduced values (`< m`), so equal values have equal limbs.
/// Nothing here is constant-time: it verifies signatures, whose inputs are public.
protocol P256MontgomeryModulus {
    static var modulus: P256Limbs { get }
    /// 1 in Montgomery form, `2²⁵⁶ mod m`.
    static var one: P256Limbs { get }
    /// `2⁵¹² mod m`: multiplying by it puts a value into Montgomery form.
    static var rSquared: P256Limbs { get }

    /// `(t + k·m)/2⁶⁴` for the `k` that clears `t`'s low limb, where `t` is `t0…t3` with `top` above
    /// them: the result in `t0…t3`, its fifth limb returned.
    static func reduce(_ t0: inout UInt64, _ t1: inout UInt64, _ t2: inout UInt64, _ t3: inout UInt64, top: UInt128) -> UInt64
}

extension P256MontgomeryModulus {
    @inline(__always)
    static func montgomery(_ value: P256Limbs) -> P256Limbs { multiply(value, rSquared) }

    @inline(__always)
    static func add(_ a: P256Limbs, _ b: P256Limbs) -> P256Limbs { a.adding(b, modulo: modulus) }

    @inline(__always)
    static func subtract(_ a: P256Limbs, _ b: P256Limbs) -> P256Limbs { a.subtracting(b, modulo: modulus) }

    @inline(__always)
    static func negate(_ a: P256Limbs) -> P256Limbs { a.isZero ? a : modulus.subtractingReportingBorrow(a).difference }

    @inline(__always)
    static func square(_ a: P256Limbs) -> P256Limbs { multiply(a, a) }

    /// `a·b·2⁻²⁵⁶ mod m` (coarsely integrated operand scanning: a row of `a·bᵢ`, then a reduction step).
    @inline(__always)
    static func multiply(_ a: P256Limbs, _ b: P256Limbs) -> P256Limbs {
        var t = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        row(a, b.w0, &t)
        row(a, b.w1, &t)
        row(a, b.w2, &t)
        row(a, b.w3, &t)
        return P256Limbs(w0: t.0, w1: t.1, w2: t.2, w3: t.3).reducedOnce(modulo: modulus, carry: t.4 != 0)
    }

    /// `t += a·b`, then one reduction step.
    @inline(__always)
    private static func row(_ a: P256Limbs, _ b: UInt64, _ t: inout (UInt64, UInt64, UInt64, UInt64, UInt64)) {
        var carry: UInt64
        (carry, t.0) = P256Limbs.multiplyAdd(a.w0, b, t.0, 0)
        (carry, t.1) = P256Limbs.multiplyAdd(a.w1, b, t.1, carry)
        (carry, t.2) = P256Limbs.multiplyAdd(a.w2, b, t.2, carry)
        (carry, t.3) = P256Limbs.multiplyAdd(a.w3, b, t.3, carry)
        t.4 = reduce(&t.0, &t.1, &t.2, &t.3, top: UInt128(t.4) &+ UInt128(carry))
    }

    /// `a⁻¹` for `a ≠ 0`, in Montgomery form if `a` is (Fermat: `a^(m−2)`, m prime).
    static func inverse(_ a: P256Limbs) -> P256Limbs {
        power(a, modulus.subtractingReportingBorrow(P256Limbs(w0: 2, w1: 0, w2: 0, w3: 0)).difference)
    }

    /// `base^exponent`, `base` in Montgomery form and the result too, the exponent a plain integer
    /// (4-bit windows).
    static func power(_ base: P256Limbs, _ exponent: P256Limbs) -> P256Limbs {
        withUnsafeTemporaryAllocation(of: P256Limbs.self, capacity: 16) { powers in
            powers[0] = one
            for index in 1..<16 { powers[index] = multiply(powers[index - 1], base) }
            var result = one
            for window in stride(from: 63, through: 0, by: -1) {
                if window != 63 { for _ in 0..<4 { result = square(result) } }
                let digit = exponent.bits(at: window * 4, count: 4)
                if digit != 0 { result = multiply(result, powers[digit]) }
            }
            return result
        }
    }
}
