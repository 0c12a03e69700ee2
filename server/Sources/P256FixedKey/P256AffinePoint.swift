/// A P-256 point other than infinity in affine coordinates, in Montgomery form: what the comb
/// tables hold.
struct P256AffinePoint: Sendable {
    var x: P256Limbs
    var y: P256Limbs

    /// The curve's coefficient b, in Montgomery form.
    static let b = P256Field.montgomery(P256Limbs(
        w0: 0x3BCE_3C3E_27D2_604B, w1: 0x651D_06B0_CC53_B0F6, w2: 0xB3EB_BD55_7698_86BC, w3: 0x5AC6_35D8_AA3A_93E7))

    /// The generator.
    static let generator: P256AffinePoint = {
        guard let point = P256AffinePoint(
            standardX: P256Limbs(w0: 0xF4A1_3945_D898_C296, w1: 0x7703_7D81_2DEB_33A0, w2: 0xF8BC_E6E5_63A4_40F2, w3: 0x6B17_D1F2_E12C_4247),
            y: P256Limbs(w0: 0xCBB6_4068_37BF_51F5, w1: 0x2BCE_3357_6B31_5ECE, w2: 0x8EE7_EB4A_7C0F_9E16, w3: 0x4FE3_42E2_FE1A_7F9B))
        else { preconditionFailure("the P-256 generator is not on the curve") }
        return point
    }()

    init(x: P256Limbs, y: P256Limbs) {
        (self.x, self.y) = (x, y)
    }

    /// The point with these standard coordinates, or `nil` if they aren't below `p` or the point
    /// isn't on the curve (y² = x³ − 3x + b).
    init?(standardX x: P256Limbs, y: P256Limbs) {
        let f = P256Field.self
        guard x.isLess(than: f.p), y.isLess(than: f.p) else { return nil }
        let (mx, my) = (f.montgomery(x), f.montgomery(y))
        let x3 = f.multiply(f.square(mx), mx)
        let right = f.add(f.subtract(x3, f.add(mx, f.add(mx, mx))), Self.b)
        guard f.square(my) == right else { return nil }
        self.init(x: mx, y: my)
    }

    /// The point from an uncompressed SEC 1 encoding (`04 ‖ x ‖ y`), validated.
    init?(x963 bytes: [UInt8]) {
        guard bytes.count == 65, bytes[0] == 4 else { return nil }
        let coordinates = bytes.withUnsafeBytes { (P256Limbs(bigEndian: $0, at: 1), P256Limbs(bigEndian: $0, at: 33)) }
        self.init(standardX: coordinates.0, y: coordinates.1)
    }

    var negated: P256AffinePoint { P256AffinePoint(x: x, y: P256Field.negate(y)) }

    /// The affine form of Jacobian points, with one inversion for all of them (Montgomery's trick);
    /// `nil` if any is at infinity.
    static func batch(_ points: [P256Point]) -> [P256AffinePoint]? {
        let f = P256Field.self
        guard !points.contains(where: \.isInfinity) else { return nil }
        var prefix = [P256Limbs]()
        prefix.reserveCapacity(points.count)
        var product = f.one
        for point in points {
            product = f.multiply(product, point.z)
            prefix.append(product)
        }
        var inverse = f.inverse(product)
        var affine = [P256AffinePoint](repeating: P256AffinePoint(x: .zero, y: .zero), count: points.count)
        for index in points.indices.reversed() {
            let zInverse = index == 0 ? inverse : f.multiply(inverse, prefix[index - 1])
            inverse = f.multiply(inverse, points[index].z)
            let zInverse2 = f.square(zInverse)
            affine[index] = P256AffinePoint(
                x: f.multiply(points[index].x, zInverse2), y: f.multiply(points[index].y, f.multiply(zInverse2, zInverse)))
        }
        return affine
    }
}
