/// One business check: its value over its window, its threshold, and whether it fires.
public struct BusinessCheck: Hashable, Sendable, Codable {
    /// `trial_conversion` (introductory trials), `app_trial_conversion`, `paywall_bounce`, `purchase_failure`,
    /// `revenue_drop` (with its currency) or `payment_failure`.
    public var check: String
    /// The currency of a revenue check.
    public var currency: String?
    /// The fraction measured; `nil` when there was nothing to measure (no trial ended, no impression, purchase, renewal due or revenue).
    public var value: Double?
    public var threshold: Double
    /// The value crossed the threshold.
    public var firing: Bool
    /// What the value is, over which days.
    public var meaning: String
}
