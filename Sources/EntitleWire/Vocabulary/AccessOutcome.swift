import Foundation

/// Whether a subscriber may use a feature now.
public struct AccessOutcome: WireVocabulary {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let allowed = AccessOutcome(rawValue: "allowed")
    public static let allowedWithWarning = AccessOutcome(rawValue: "allowed_with_warning")
    public static let denied = AccessOutcome(rawValue: "denied")

    public static let known: [AccessOutcome] = [.allowed, .allowedWithWarning, .denied]
}
