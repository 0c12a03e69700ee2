import Foundation

/// When failed sign-ins lock an account (docs/dashboard.md, "Accounts"): after `threshold` failures in a
/// row, for `first`, doubling with each failure after, up to `longest`. Counted in the database, so an
/// attacker spreading guesses over instances is counted once.
public struct SignInLockout: Hashable, Sendable {
    public var threshold: Int
    public var first: TimeInterval
    public var longest: TimeInterval

    public init(threshold: Int = 5, first: TimeInterval = 60, longest: TimeInterval = 15 * 60) {
        self.threshold = max(1, threshold)
        self.first = first
        self.longest = longest
    }

    /// Until when an account with `failures` failures in a row, the last at `now`, is locked; `nil` when it isn't.
    public func lockedUntil(failures: Int, now: Date) -> Date? {
        guard failures >= threshold else { return nil }
        // Doubling, with the exponent bounded before it could overflow.
        let doublings = min(failures - threshold, 20)
        return now.addingTimeInterval(min(longest, first * Double(1 << doublings)))
    }
}
