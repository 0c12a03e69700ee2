/// P-256's field, modulo p = 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1, whose shape makes a reduction step two
/// multiplications (`−p⁻¹ ≡ 1 mod 2⁶⁴`, p's low limb 2⁶⁴ − 1, its third 0).
enum P256Field: P256MontgomeryModulus {
    @inline(__always)
    static var p: P256Limbs { P256Limbs(w0: 0xFFFF_FFFF_FFFF_FFFF, w1: 0x0000_0000_FFFF_FFFF, w2: 0, w3: 0xFFFF_FFFF_0000_0001) }
    @inline(__always)
    static var modulus: P256Limbs { p }
    @inline(__always)
    static var one: P256Limbs { P256Limbs(w0: 1, w1: 0xFFFF_FFFF_0000_0000, w2: 0xFFFF_FFFF_FFFF_FFFF, w3: 0x0000_0000_FFFF_FFFE) }
    @inline(__always)
    static var rSquared: P256Limbs { P256Limbs(w0: 3, w1: 0xFFFF_FFFB_FFFF_FFFF, w2: 0xFFFF_FFFF_FFFF_FFFE, w3: 0x0000_0004_FFFF_FFFD) }

    @inline(__always)
    static func reduce(_ t0: inout UInt64, _ t1: inout UInt64, _ t2: inout UInt64, _ t3: inout UInt64, top: UInt128) -> UInt64 {
        // k = t₀; t₀ + k·(2⁶⁴ − 1) = k·2⁶⁴: the low limb clears and carries k.
        let k = t0
        var carry: UInt64
        (carry, t0) = P256Limbs.multiplyAdd(k, 0x0000_0000_FFFF_FFFF, t1, k)
        (carry, t1) = P256Limbs.multiplyAdd(0, 0, t2, carry)
        (carry, t2) = P256Limbs.multiplyAdd(k, 0xFFFF_FFFF_0000_0001, t3, carry)
        let limbs = top &+ UInt128(carry)
        t3 = UInt64(truncatingIfNeeded: limbs)
        return UInt64(truncatingIfNeeded: limbs >> 64)
    }
}
