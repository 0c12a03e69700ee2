import Foundation

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

    public init(date: String, activePaid: Int64, activeTrials: Int64, activeAppTrials: Int64, activeFamilyShared: Int64, mrr: [String: Int64], arr: [String: Int64]) {
        self.date = date
        self.activePaid = activePaid
        self.activeTrials = activeTrials
        self.activeAppTrials = activeAppTrials
        self.activeFamilyShared = activeFamilyShared
        self.mrr = mrr
        self.arr = arr
    }
}
