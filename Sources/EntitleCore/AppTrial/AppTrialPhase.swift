import Foundation

/// Where a subscriber is in the app-managed trial.
public enum AppTrialPhase: Hashable, Sendable {
    /// No first launch recorded.
    case notStarted
    /// Full trial access until `endsAt`.
    case active(endsAt: Date)
    /// The trial is over; access continues with warnings until `lockoutAt`.
    case grace(trialEndedAt: Date, lockoutAt: Date)
    /// Read-only: only the free tier and what lockout allows.
    case lockout(since: Date)
    /// A store purchase replaced the trial.
    case superseded(at: Date)

    /// The stable name used in API responses.
    public var name: String {
        switch self {
        case .notStarted: "not_started"
        case .active: "active"
        case .grace: "grace"
        case .lockout: "lockout"
        case .superseded: "superseded"
        }
    }
}
