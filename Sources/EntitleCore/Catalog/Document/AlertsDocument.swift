/// The entitlements file's `alerts`: the business checks' thresholds (``BusinessThresholds``), each a
/// fraction from 0 to 1; one left out keeps the default.
public struct AlertsDocument: Decodable, Sendable, Hashable {
    public var trialConversionBelow: Double?
    public var paywallBounceAbove: Double?
    public var revenueDropAbove: Double?
    public var paymentFailureAbove: Double?
    public var purchaseFailureAbove: Double?
}
