/// The entitlements file's `anomalies`: when a subscriber is flagged (``AnomalyRules``); a rule left out
/// keeps its default, a usage norm left out flags nothing.
public struct AnomaliesDocument: Decodable, Sendable, Hashable {
    /// So many of something within so many days.
    public struct Burst: Decodable, Sendable, Hashable {
        public var count: Int?
        public var days: Int?
    }

    /// Other accounts that submitted one purchase as theirs.
    public var sharedPurchase: Burst?
    /// Introductory offers begun under one appAccountToken.
    public var trialBurst: Burst?
    /// The most a plan's subscriber normally uses of a metered quota in one of its windows, by quota.
    public var usage: [String: Int]?
}
