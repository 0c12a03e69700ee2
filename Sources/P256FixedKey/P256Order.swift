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
