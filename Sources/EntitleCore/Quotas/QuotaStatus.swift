import Foundation

/// Where a subscriber stands on one metered quota at an instant.
public struct QuotaStatus: Hashable, Sendable, Codable {
    public var feature: String
    public var window: QuotaWindow
    public var allowance: Allowance
    /// Usage counted in the current window.
    public var used: Int
    /// What is left, or `nil` when unlimited.
    public var remaining: Int?
    /// When usage next frees up: the end of the calendar period, or for a rolling window the moment
    /// the oldest counted use leaves it. `nil` when nothing is counted in a rolling window.
    public var resetsAt: Date?

    public init(feature: String, window: QuotaWindow, allowance: Allowance, used: Int, remaining: Int?, resetsAt: Date?) {
        self.feature = feature
        self.window = window
        self.allowance = allowance
        self.used = used
        self.remaining = remaining
        self.resetsAt = resetsAt
    }

    /// Counts `records` of `feature` in the window containing `now`. Records with the same
    /// idempotency key count once; records after `now` don't count.
    public static func evaluate(
        feature: String, window: QuotaWindow, allowance: Allowance, records: [UsageRecord],
        timeZone: TimeZone, now: Date
    ) -> QuotaStatus {
        let (counted, resetsAt) = self.counted(feature: feature, window: window, records: records, timeZone: timeZone, now: now)
        let used = total(counted)
        let remaining = allowance.maximum.map { max(0, $0 - used) }
        return QuotaStatus(feature: feature, window: window, allowance: allowance, used: used, remaining: remaining, resetsAt: resetsAt)
    }

    /// The records of `feature` counted in the window containing `now` (the same idempotency key once,
    /// none after `now`), and when usage next frees up.
    public static func counted(
        feature: String, window: QuotaWindow, records: [UsageRecord], timeZone: TimeZone, now: Date
    ) -> (records: [UsageRecord], resetsAt: Date?) {
        var seenKeys = Set<String>()
        let relevant = records.filter { record in
            guard record.feature == feature, record.at <= now else { return false }
            guard let key = record.idempotencyKey else { return true }
            return seenKeys.insert(key).inserted
        }
        if let period = window.calendarPeriod(containing: now, timeZone: timeZone) {
            return (relevant.filter { $0.at >= period.start && $0.at < period.end }, period.end)
        } else if case .rolling(let length) = window {
            let inWindow = relevant.filter { length.added(to: $0.at) > now }
            return (inWindow, inWindow.map(\.at).min().map { length.added(to: $0) })
        }
        return ([], nil)
    }

    /// The status once `amount` more is used (saturating), with what remains recounted.
    public func using(_ amount: Int) -> QuotaStatus {
        guard amount > 0 else { return self }
        let used = used.saturatingAdding(amount)
        return QuotaStatus(
            feature: feature, window: window, allowance: allowance, used: used, remaining: allowance.maximum.map { max(0, $0 - used) },
            resetsAt: resetsAt)
    }

    /// The amounts of `records` added up, saturating at `Int.max` (a stored amount is never trusted
    /// to keep a sum in range).
    static func total(_ records: [UsageRecord]) -> Int {
        records.reduce(0) { $0.saturatingAdding(max($1.amount, 0)) }
    }
}
