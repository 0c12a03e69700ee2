import EntitleCore
import Foundation

/// How long a subscription period lasts in the store's signed dates.
public enum TimeScale: Hashable, Sendable {
    /// Calendar time: a month is a month.
    case real
    /// Apple's sandbox renewal rates: 3 days → 2 min, 1 week → 3 min, 1 month → 5 min, 2 months →
    /// 10 min, 3 months → 15 min, 6 months → 30 min, 1 year → 1 h; other durations at a month's rate.
    case appleSandbox
    /// Calendar time divided by a factor (e.g. 8,640 makes a 30-day month last 5 minutes).
    case factor(Double)

    /// The instant `duration` after `start`.
    public func end(of duration: ISODuration, from start: Date) -> Date {
        switch self {
        case .real:
            return duration.added(to: start)
        case .appleSandbox:
            let minutes: Double
            switch (duration.years, duration.months, duration.weeks, duration.days) {
            case (0, 0, 0, 3): minutes = 2
            case (0, 0, 1, 0), (0, 0, 0, 7): minutes = 3
            case (0, 1, 0, 0): minutes = 5
            case (0, 2, 0, 0): minutes = 10
            case (0, 3, 0, 0): minutes = 15
            case (0, 6, 0, 0): minutes = 30
            case (1, 0, 0, 0), (0, 12, 0, 0): minutes = 60
            default: minutes = duration.approximateDays / 30 * 5
            }
            return start + minutes * 60
        case .factor(let factor):
            let real = duration.added(to: start).timeIntervalSince(start)
            return start + real / max(factor, 1)
        }
    }
}
