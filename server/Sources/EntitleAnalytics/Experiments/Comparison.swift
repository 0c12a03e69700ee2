import EntitleWire

/// A comparison computed from the variant's and the control's figures.
extension Comparison {
    public init(difference: Double, standardError: Double, pooledStandardError: Double, varianceSum: Double, test: String) {
        let pValue: Double
        if pooledStandardError > 0 {
            pValue = 2 * (1 - Normal.cdf(abs(difference) / pooledStandardError))
        } else {
            pValue = difference == 0 ? 1 : 0
        }
        let chance: Double
        if standardError > 0 {
            chance = Normal.cdf(difference / standardError)
        } else {
            chance = difference > 0 ? 1 : difference < 0 ? 0 : 0.5
        }
        var sample: Int?
        if difference != 0 {
            let needed = (Normal.z95 + Normal.z80) * (Normal.z95 + Normal.z80) * varianceSum / (difference * difference)
            sample = needed.isFinite && needed < Double(Int.max / 2) ? Int(needed.rounded(.up)) : nil
        }
        self.init(
            difference: difference, lower: difference - Normal.z95 * standardError, upper: difference + Normal.z95 * standardError,
            pValue: pValue, chanceToBeatControl: chance, sampleNeededPerVariant: sample, test: test)
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
