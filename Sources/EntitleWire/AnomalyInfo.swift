import Foundation

/// Something about a subscriber a person should look at (docs/anomalies.md): a purchase several other
/// accounts submitted as theirs (`shared_purchase`), a burst of introductory offers under one
/// appAccountToken (`trial_burst`), metered usage above the plan's norm (`usage_above_norm`). It grants
/// or takes nothing.
public struct AnomalyInfo: Codable, Hashable, Sendable {
    /// `shared_purchase`, `trial_burst` or `usage_above_norm`.
    public var kind: String
    /// When the evidence reached the rule's threshold.
    public var since: Date
    /// How many: other accounts, introductory offers, or uses in the quota's current window.
    public var count: Int
    /// The rule's threshold (for usage, the norm the count exceeds).
    public var threshold: Int
    /// For `shared_purchase`: the purchase.
    public var originalTransactionID: String?
    /// For `trial_burst`: the appAccountToken.
    public var appAccountToken: UUID?
    /// For `usage_above_norm`: the quota.
    public var feature: String?

    public init(
        kind: String, since: Date, count: Int, threshold: Int, originalTransactionID: String? = nil, appAccountToken: UUID? = nil, feature: String? = nil
    ) {
        self.kind = kind
        self.since = since
        self.count = count
        self.threshold = threshold
        self.originalTransactionID = originalTransactionID
        self.appAccountToken = appAccountToken
        self.feature = feature
    }
}
