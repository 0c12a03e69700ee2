import Foundation

/// Something about a subscriber a person should look at (``AnomalyRules``): what, since when, and the
/// evidence. Computed from the subscriber's facts by ``AnomalyDetector``, never stored.
public struct Anomaly: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// A purchase of theirs was submitted as theirs by several other accounts.
        case sharedPurchase = "shared_purchase"
        /// Several purchase chains under one appAccountToken began introductory offers in a short time.
        case trialBurst = "trial_burst"
        /// More of a metered quota in its current window than the plan's norm.
        case usageAboveNorm = "usage_above_norm"
    }

    public var kind: Kind
    /// When the evidence reached the rule's threshold: the claim or offer that made the count, or the
    /// use that took the window past the norm.
    public var since: Date
    /// How many: other accounts, introductory offers, or uses in the window.
    public var count: Int
    /// The rule's threshold the count reached (or, for usage, exceeded).
    public var threshold: Int
    /// For a shared purchase: the purchase.
    public var originalTransactionID: OriginalTransactionID?
    /// For a trial burst: the appAccountToken.
    public var appAccountToken: UUID?
    /// For usage: the quota.
    public var feature: String?

    public init(
        kind: Kind, since: Date, count: Int, threshold: Int, originalTransactionID: OriginalTransactionID? = nil, appAccountToken: UUID? = nil,
        feature: String? = nil
    ) {
        self.kind = kind
        self.since = since
        self.count = count
        self.threshold = threshold
        self.originalTransactionID = originalTransactionID
        self.appAccountToken = appAccountToken
        self.feature = feature
    }

    /// What makes the flag one of its kind for a subscriber: its kind and what it is about (a webhook
    /// is sent when a new one appears, not when its count grows).
    public var subject: String {
        [kind.rawValue, originalTransactionID?.rawValue ?? "", appAccountToken?.uuidString.lowercased() ?? "", feature ?? ""].joined(separator: ":")
    }
}
