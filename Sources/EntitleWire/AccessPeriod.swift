import Foundation

/// What the subscriber may do during a stretch of time, decided by the server for every feature, limit
/// and quota the app declares (usage 1; a limit's `allowance` tells how many are allowed): what an app
/// gates with offline. The first period starts at the answer's server time; the next starts when the
/// answer changes with no new event (an expiry, a trial's end, a quota reset).
public struct AccessPeriod: Codable, Hashable, Sendable {
    public var from: Date
    /// When the next period starts; `nil` when nothing known changes the answer.
    public var until: Date?
    public var decisions: [String: AccessResponse]

    public init(from: Date, until: Date?, decisions: [String: AccessResponse]) {
        self.from = from
        self.until = until
        self.decisions = decisions
    }
}
