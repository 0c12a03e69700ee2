/// When a subscriber is flagged as an anomaly (the entitlements file's `anomalies`, docs/entitlements.md):
/// a purchase claimed by several other accounts, a burst of introductory offers under one
/// appAccountToken, metered usage above the plan's norm. Flags grant or take nothing: they are for a
/// person to look at (the subscriber answer, the dashboard, the `anomaly_flagged` webhook).
public struct AnomalyRules: Hashable, Sendable {
    /// So many of something within so many days.
    public struct Burst: Hashable, Sendable {
        public var count: Int
        public var days: Int

        public init(count: Int, days: Int) {
            self.count = count
            self.days = days
        }
    }

    /// Flag a purchase when this many other accounts submitted it as theirs within this many days.
    public var sharedPurchase: Burst
    /// Flag a subscriber when this many purchase chains under one appAccountToken began an introductory
    /// offer within this many days.
    public var trialBurst: Burst
    /// The most a subscriber normally uses of a quota in one of its windows, by quota: more is flagged.
    /// None by default.
    public var usageNorms: [String: Int]

    public init(sharedPurchase: Burst = Burst(count: 3, days: 30), trialBurst: Burst = Burst(count: 3, days: 30), usageNorms: [String: Int] = [:]) {
        self.sharedPurchase = sharedPurchase
        self.trialBurst = trialBurst
        self.usageNorms = usageNorms
    }

    /// The defaults: 3 other accounts within 30 days; 3 introductory offers within 30 days; no usage norm.
    public static let standard = AnomalyRules()
    /// The counts a rule may set.
    public static let counts = 2...1_000
    /// The days a rule may span.
    public static let days = 1...365
}
