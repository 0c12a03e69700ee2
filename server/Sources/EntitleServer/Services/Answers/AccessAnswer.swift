import EntitleCore
import Foundation

/// A gating answer and the instant it was computed at.
public struct AccessAnswer: Sendable {
    public let decision: AccessDecision
    public let at: Date

    public init(decision: AccessDecision, at: Date) {
        self.decision = decision
        self.at = at
    }
}
