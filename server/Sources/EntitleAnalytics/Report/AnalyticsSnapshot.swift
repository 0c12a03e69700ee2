/// The headline figures at the end of the report's last day.
public struct AnalyticsSnapshot: Hashable, Sendable, Codable {
    public var date: String
    public var activePaid: Int64
    public var activeTrials: Int64
    public var activeAppTrials: Int64
    public var activeFamilyShared: Int64
    /// In milliunits, by currency.
    public var mrr: [String: Int64]
    /// MRR × 12.
    public var arr: [String: Int64]
}
