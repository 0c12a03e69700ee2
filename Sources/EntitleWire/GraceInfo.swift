import Foundation

/// The warning days after a paid subscription ended, before the app's lockout (the catalog's
/// `appTrial.graceAfterSubscriptionExpiry`), while they run.
public struct GraceInfo: Codable, Hashable, Sendable {
    /// When the subscription's access ended and the warning days began.
    public var startedAt: Date
    /// When the app locks out.
    public var lockoutAt: Date
    /// Whole days left before the lockout when the server answered.
    public var daysLeft: Int

    public init(startedAt: Date, lockoutAt: Date, daysLeft: Int) {
        self.startedAt = startedAt
        self.lockoutAt = lockoutAt
        self.daysLeft = daysLeft
    }
}
