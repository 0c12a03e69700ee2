import Foundation

/// A variant's figure against the control's: the difference, its 95% confidence interval, the
/// two-sided p-value, the chance the variant is better (docs/growth.md says how each is computed), and
/// the sample per variant a difference this size needs to be found 80% of the time at the 5% level.
public struct Comparison: Hashable, Sendable, Codable {
    /// Variant − control.
    public var difference: Double
    public var lower: Double
    public var upper: Double
    public var pValue: Double
    /// P(variant > control) under the normal approximation: Φ(difference ÷ standard error).
    public var chanceToBeatControl: Double
    /// Subscribers per variant that would find this difference 80% of the time at the 5% level;
    /// `nil` when the difference is 0.
    public var sampleNeededPerVariant: Int?
    /// The test used: `two-proportion z-test` or `Welch's t-test (normal approximation)`.
    public var test: String

    public init(difference: Double, lower: Double, upper: Double, pValue: Double, chanceToBeatControl: Double, sampleNeededPerVariant: Int?, test: String) {
        self.difference = difference
        self.lower = lower
        self.upper = upper
        self.pValue = pValue
        self.chanceToBeatControl = chanceToBeatControl
        self.sampleNeededPerVariant = sampleNeededPerVariant
        self.test = test
    }
}
