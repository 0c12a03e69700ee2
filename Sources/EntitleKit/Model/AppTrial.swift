import EntitleCore
import EntitleWire
import Foundation

/// The app's own trial, counted from the first launch the server heard of: its days, its warning days
/// (the grace), then the read-only lockout.
public struct AppTrial: Sendable, Hashable {
    public enum Phase: WireMapped {
        /// No first launch recorded yet (``Entitle/recordFirstLaunch()``).
        case notStarted
        case active
        /// The trial ended; the warning days keep access until ``AppTrial/lockoutAt``.
        case grace
        /// Read-only: the trial and its warning days are over.
        case lockout
        /// A purchase replaced the trial.
        case superseded
        case other(String)

        static let cases: [(wire: AppTrialPhaseValue, value: Phase)] = [
            (.notStarted, .notStarted), (.active, .active), (.grace, .grace), (.lockout, .lockout), (.superseded, .superseded),
        ]

        var otherValue: String? { if case .other(let value) = self { value } else { nil } }


        /// The value as the API spells it.

        public var rawValue: String { wireRawValue }

        public var description: String { wireRawValue }
    }

    public var phase: Phase
    /// The first launch the server heard of.
    public var startedAt: Date?
    /// When the trial ends and its warning days begin.
    public var endsAt: Date?
    /// When the warning days end and the lockout begins.
    public var lockoutAt: Date?

    /// Whole days left at `now` ("23 days left in trial"): of the trial while it runs, of the warning
    /// days in grace; `nil` in other phases. The server counts its answers' `daysLeft` with the same
    /// function, so a cached answer counts down on the device as the server would.
    public func daysLeft(at now: Date) -> Int? {
        switch phase {
        case .active: endsAt.map { DaysLeft.until($0, from: now) }
        case .grace: lockoutAt.map { DaysLeft.until($0, from: now) }
        default: nil
        }
    }

    init(_ wire: AppTrialInfo) {
        phase = Phase(wire.phase)
        startedAt = wire.startedAt
        endsAt = wire.endsAt
        lockoutAt = wire.lockoutAt
    }
}
