/// A P-256 point in Jacobian coordinates (`x = X/Z²`, `y = Y/Z³`), coordinates in Montgomery form;
/// `Z = 0` is the point at infinity.
///
/// Additions handle every case (either operand at infinity, equal points, opposite points), so no
/// input, however chosen, reaches a formula outside its domain.
struct P256Point: Sendable {
    var x: P256Limbs
    var y: P256Limbs
    var z: P256Limbs

    static let infinity = P256Point(x: .zero, y: .zero, z: .zero)

    init(x: P256Limbs, y: P256Limbs, z: P256Limbs) {
        (self.x, self.y, self.z) = (x, y, z)
    }

    init(_ affine: P256AffinePoint) {
        self.init(x: affine.x, y: affine.y, z: P256Field.one)
    }

    var isInfinity: Bool { z.isZero }

    /// `2·self` (dbl-2001-b, for a = −3).
    @inline(__always)
    func doubled() -> P256Point {
        let f = P256Field.self
        guard !isInfinity, !y.isZero else { return .infinity }
        let delta = f.square(z)
        let gamma = f.square(y)
        let beta = f.multiply(x, gamma)
        let alpha0 = f.multiply(f.subtract(x, delta), f.add(x, delta))
        let alpha = f.add(alpha0, f.add(alpha0, alpha0))
        let beta2 = f.add(beta, beta)
        let beta4 = f.add(beta2, beta2)
        let x3 = f.subtract(f.square(alpha), f.add(beta4, beta4))
        let z3 = f.subtract(f.subtract(f.square(f.add(y, z)), gamma), delta)
        let gamma2 = f.square(gamma)
        let gamma4 = f.add(gamma2, gamma2)
        let gamma8 = f.add(gamma4, gamma4)
        let y3 = f.subtract(f.multiply(alpha, f.subtract(beta4, x3)), f.add(gamma8, gamma8))
        return P256Point(x: x3, y: y3, z: z3)
    }

    /// `self + other` (madd-2007-bl; equal and opposite points handled apart).
    @inline(__always)
    func adding(_ other: P256AffinePoint) -> P256Point {
        let f = P256Field.self
        if isInfinity { return P256Point(other) }
        let z1z1 = f.square(z)
        let u2 = f.multiply(other.x, z1z1)
        let s2 = f.multiply(other.y, f.multiply(z, z1z1))
        let h = f.subtract(u2, x)
        let rHalf = f.subtract(s2, y)
        if h.isZero {
            return rHalf.isZero ? doubled() : .infinity
        }
        let hh = f.square(h)
        let hh2 = f.add(hh, hh)
        let i = f.add(hh2, hh2)
        let j = f.multiply(h, i)
        let r = f.add(rHalf, rHalf)
        let v = f.multiply(x, i)
        let x3 = f.subtract(f.subtract(f.square(r), j), f.add(v, v))
        let y1j = f.multiply(y, j)
        let y3 = f.subtract(f.multiply(r, f.subtract(v, x3)), f.add(y1j, y1j))
        let z3 = f.subtract(f.subtract(f.square(f.add(z, h)), z1z1), hh)
        return P256Point(x: x3, y: y3, z: z3)
    }
}
