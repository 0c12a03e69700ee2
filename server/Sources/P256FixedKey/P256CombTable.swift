/// Multiples of one point for multiplying it by any scalar without doubling: for each of 37 windows
/// of 7 bits, `1·2⁷ⁱ·P … 64·2⁷ⁱ·P` in affine form (151,552 bytes). A scalar recoded into signed digits
/// in −64…64 (``digit(of:window:carry:)``) then costs at most 37 mixed additions.
///
/// BoringSSL keeps such a table for the generator only; a verifier that checks many signatures with
/// one key gains the same for that key.
final class P256CombTable: Sendable {
    static let windows = 37
    static let entries = 64

    private let points: [P256AffinePoint]

    /// The table of `point`; `nil` only if an entry were at infinity, which a point of P-256's prime
    /// order never gives.
    init?(_ point: P256AffinePoint) {
        var points = [P256AffinePoint]()
        points.reserveCapacity(Self.windows * Self.entries)
        var base = point
        for window in 0..<Self.windows {
            var multiples = [P256Point(base)]
            multiples.reserveCapacity(Self.entries)
            for _ in 1..<Self.entries { multiples.append(multiples[multiples.count - 1].adding(base)) }
            guard let affine = P256AffinePoint.batch(multiples) else { return nil }
            points += affine
            if window + 1 < Self.windows {
                guard let next = P256AffinePoint.batch([P256Point(affine[Self.entries - 1]).doubled()]) else { return nil }
                base = next[0]
            }
        }
        self.points = points
    }

    /// The generator's table: built from constants (a table fails only for the point at infinity).
    static let generator: P256CombTable = {
        guard let table = P256CombTable(.generator) else { preconditionFailure("the P-256 generator has no comb table") }
        return table
    }()

    /// Adds `digit·2⁷ⁱ·P` (`window` i, `digit` in −64…64) to `sum`.
    @inline(__always)
    func add(window: Int, digit: Int, to sum: inout P256Point) {
        guard digit != 0 else { return }
        let entry = points[window * Self.entries + abs(digit) - 1]
        sum = sum.adding(digit < 0 ? entry.negated : entry)
    }

    /// The signed digit of `scalar` for `window` (−64…64), with `carry` (0 or 1) taken from the window
    /// below and handed to the one above: over windows 0…36 in turn the digits `dᵢ` give
    /// `Σ dᵢ·2⁷ⁱ = scalar` for any scalar below 2²⁵⁶ (the top window's 4 bits never carry out).
    @inline(__always)
    static func digit(of scalar: P256Limbs, window: Int, carry: inout Int) -> Int {
        let value = scalar.bits(at: window * 7, count: 7) + carry
        if value > entries {
            carry = 1
            return value - 2 * entries
        }
        carry = 0
        return value
    }

    /// `scalar·P` (for building and checking; a verification adds two scalars' digits into one sum).
    func multiply(_ scalar: P256Limbs) -> P256Point {
        var sum = P256Point.infinity
        var carry = 0
        for window in 0..<Self.windows {
            add(window: window, digit: Self.digit(of: scalar, window: window, carry: &carry), to: &sum)
        }
        return sum
    }
}
