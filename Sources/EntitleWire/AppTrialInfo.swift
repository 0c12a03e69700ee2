import Foundation

/// The app-managed trial of a subscriber.
public struct AppTrialInfo: Codable, Hashable, Sendable {
    public var phase: AppTrialPhaseValue
    public var startedAt: Date?
    public var endsAt: Date?
    public var lockoutAt: Date?

    public init(phase: AppTrialPhaseValue, startedAt: Date?, endsAt: Date?, lockoutAt: Date?) {
        self.phase = phase
        self.startedAt = startedAt
        self.endsAt = endsAt
        self.lockoutAt = lockoutAt
    }
}
