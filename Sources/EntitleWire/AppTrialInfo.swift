import Foundation

/// The app-managed trial of a subscriber.
public struct AppTrialInfo: Codable, Hashable, Sendable {
    public var phase: AppTrialPhaseValue
    /// The first launch the server heard of.
    public var startedAt: Date?
    /// When the trial ends and its warning days (the grace) begin.
    public var endsAt: Date?
    /// When the warning days end and the app's lockout begins (known from the trial's start).
    public var lockoutAt: Date?
    /// Whole days left when the server answered: of the trial while it runs, of the warning days in grace.
    public var daysLeft: Int?

    public init(phase: AppTrialPhaseValue, startedAt: Date?, endsAt: Date?, lockoutAt: Date?, daysLeft: Int? = nil) {
        self.daysLeft = daysLeft
        self.phase = phase
        self.startedAt = startedAt
        self.endsAt = endsAt
        self.lockoutAt = lockoutAt
    }
}
