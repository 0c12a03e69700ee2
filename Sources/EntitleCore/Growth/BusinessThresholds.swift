/// When the business checks an app's dashboard and alert rules watch should fire (docs/growth.md):
/// the entitlements file's `alerts`, each a fraction from 0 to 1; the seeds' numbers by default.
public struct BusinessThresholds: Hashable, Sendable, Codable {
    /// Introductory trials converting to paid below this share (seed 004: 10%).
    public var trialConversionBelow: Double
    /// Paywalls closed without buying above this share of impressions (seed 004: 70%).
    public var paywallBounceAbove: Double
    /// Revenue of the last seven days below the seven before by more than this share (seed 004: 20%).
    public var revenueDropAbove: Double
    /// Renewals due that failed to bill above this share (seed 000: 2%).
    public var paymentFailureAbove: Double

    public init(trialConversionBelow: Double = 0.10, paywallBounceAbove: Double = 0.70, revenueDropAbove: Double = 0.20, paymentFailureAbove: Double = 0.02) {
        self.trialConversionBelow = trialConversionBelow
        self.paywallBounceAbove = paywallBounceAbove
        self.revenueDropAbove = revenueDropAbove
        self.paymentFailureAbove = paymentFailureAbove
    }

    public static let seeds = BusinessThresholds()
}
