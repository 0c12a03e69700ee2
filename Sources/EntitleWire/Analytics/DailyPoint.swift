import Foundation

/// The balances at the end of one UTC day.
public struct DailyPoint: Hashable, Sendable, Codable {
    /// `YYYY-MM-DD`.
    public var date: String
    public var activePaid: Int64
    public var activeTrials: Int64
    public var activeAppTrials: Int64
    public var activeFamilyShared: Int64
    /// Monthly recurring revenue in milliunits, by currency.
    public var mrr: [String: Int64]

    public init(date: String, activePaid: Int64, activeTrials: Int64, activeAppTrials: Int64, activeFamilyShared: Int64, mrr: [String: Int64]) {
        self.date = date
        self.activePaid = activePaid
        self.activeTrials = activeTrials
        self.activeAppTrials = activeAppTrials
        self.activeFamilyShared = activeFamilyShared
        self.mrr = mrr
    }
}
