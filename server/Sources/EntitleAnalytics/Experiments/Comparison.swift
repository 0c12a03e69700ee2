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

    public init(difference: Double, standardError: Double, pooledStandardError: Double, varianceSum: Double, test: String) {
        self.difference = difference
        self.lower = difference - Normal.z95 * standardError
        self.upper = difference + Normal.z95 * standardError
        if pooledStandardError > 0 {
            self.pValue = 2 * (1 - Normal.cdf(abs(difference) / pooledStandardError))
        } else {
            self.pValue = difference == 0 ? 1 : 0
        }
        if standardError > 0 {
            self.chanceToBeatControl = Normal.cdf(difference / standardError)
        } else {
            self.chanceToBeatControl = difference > 0 ? 1 : difference < 0 ? 0 : 0.5
        }
        if difference != 0 {
            let needed = (Normal.z95 + Normal.z80) * (Normal.z95 + Normal.z80) * varianceSum / (difference * difference)
            self.sampleNeededPerVariant = needed.isFinite && needed < Double(Int.max / 2) ? Int(needed.rounded(.up)) : nil
        } else {
            self.sampleNeededPerVariant = nil
        }
        self.test = test
    }

    /// Proportions `successes ÷ trials` of a variant against the control's: the interval from the
    /// unpooled standard error, the p-value from the pooled one (a two-proportion z-test).
    public static func proportions(control: (Int64, Int64), variant: (Int64, Int64)) -> Comparison? {
        let (c, n1) = (Double(control.0), Double(control.1))
        let (v, n2) = (Double(variant.0), Double(variant.1))
        guard n1 > 0, n2 > 0 else { return nil }
        let (p1, p2) = (c / n1, v / n2)
        let pooled = (c + v) / (n1 + n2)
        return Comparison(
            difference: p2 - p1, standardError: (p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2).squareRoot(),
            pooledStandardError: (pooled * (1 - pooled) * (1 / n1 + 1 / n2)).squareRoot(),
            varianceSum: p1 * (1 - p1) + p2 * (1 - p2), test: "two-proportion z-test")
    }

    /// Means from sums and sums of squares (Welch's t-test with the normal approximation: the samples
    /// here are hundreds to millions).
    public static func means(control: (sum: Double, squares: Double, count: Int64), variant: (sum: Double, squares: Double, count: Int64)) -> Comparison? {
        guard control.count > 1, variant.count > 1 else { return nil }
        func moments(_ sample: (sum: Double, squares: Double, count: Int64)) -> (mean: Double, variance: Double, count: Double) {
            let n = Double(sample.count)
            let mean = sample.sum / n
            return (mean, max(0, (sample.squares - n * mean * mean) / (n - 1)), n)
        }
        let (a, b) = (moments(control), moments(variant))
        let standardError = (a.variance / a.count + b.variance / b.count).squareRoot()
        return Comparison(
            difference: b.mean - a.mean, standardError: standardError, pooledStandardError: standardError, varianceSum: a.variance + b.variance,
            test: "Welch's t-test (normal approximation)")
    }
}
