import Foundation

/// Where a subscriber is in the app-managed trial.
public struct AppTrialPhaseValue: WireVocabulary {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let notStarted = AppTrialPhaseValue(rawValue: "not_started")
    public static let active = AppTrialPhaseValue(rawValue: "active")
    public static let grace = AppTrialPhaseValue(rawValue: "grace")
    public static let lockout = AppTrialPhaseValue(rawValue: "lockout")
    public static let superseded = AppTrialPhaseValue(rawValue: "superseded")

    public static let known: [AppTrialPhaseValue] = [.notStarted, .active, .grace, .lockout, .superseded]
}
