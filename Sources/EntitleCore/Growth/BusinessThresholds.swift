/// When the business checks an app's dashboard and alert rules watch should fire (docs/growth.md):
/// the entitlements file's `alerts`, each a fraction from 0 to 1; the seeds' numbers by default.
public struct BusinessThresholds: Hashable, Sendable, Codable {
    /// Trials converting to paid below this share, each kind of trial judged alone (seed 004: 10%).
    public var trialConversionBelow: Double
    /// Paywalls closed without buying above this share of impressions (seed 004: 70%).
    public var paywallBounceAbove: Double
    /// Yesterday's revenue below the daily mean of the seven days before by more than this share (seed 004: 20%).
    public var revenueDropAbove: Double
    /// Renewals due that failed to bill above this share (seed 000: 2%).
    public var paymentFailureAbove: Double
    /// Purchases started from a paywall that failed above this share (seed 004's StoreKit errors: 5%).
    public var purchaseFailureAbove: Double

    public init(
        trialConversionBelow: Double = 0.10, paywallBounceAbove: Double = 0.70, revenueDropAbove: Double = 0.20,
        paymentFailureAbove: Double = 0.02, purchaseFailureAbove: Double = 0.05
    ) {
        self.trialConversionBelow = trialConversionBelow
        self.paywallBounceAbove = paywallBounceAbove
        self.revenueDropAbove = revenueDropAbove
        self.paymentFailureAbove = paymentFailureAbove
        self.purchaseFailureAbove = purchaseFailureAbove
    }

    public static let seeds = BusinessThresholds()
}
