import Foundation

/// The standard normal distribution, as the experiments' statistics use it.
enum Normal {
    /// The 97.5th percentile: a two-sided 95% interval is ±1.96 standard errors.
    static let z95 = 1.959963984540054
    /// The 80th percentile: 80% power.
    static let z80 = 0.8416212335729143

    /// P(Z ≤ x).
    static func cdf(_ x: Double) -> Double {
        0.5 * erfc(-x / 2.squareRoot())
    }
}
