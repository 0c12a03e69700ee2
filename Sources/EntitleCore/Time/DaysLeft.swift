import Foundation

/// Whole days left until an instant, as a countdown shows them ("23 days left in trial"): the time left
/// in 24-hour days, rounded up, so the last hours still read 1 and an instant passed reads 0. The server's
/// answers and the SDK count with this one function.
public enum DaysLeft {
    public static func until(_ end: Date, from now: Date) -> Int {
        let seconds = end.timeIntervalSince(now)
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int(saturating: (seconds / 86_400).rounded(.up))
    }
}
