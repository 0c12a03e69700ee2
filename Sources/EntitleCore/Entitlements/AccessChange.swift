import Foundation

/// A change of a subscriber's answer that happens by time passing alone, with no new event: a
/// subscription expiring or leaving its grace period, the app-managed trial ending or locking out, a
/// grant or override running out, a quota window resetting.
///
/// Schedules and webhooks are built on it: they fire at ``at`` and report ``before`` and ``after``.
public struct AccessChange: Sendable {
    /// The first instant at which the answer differs from the one before it.
    public let at: Date
    /// The answer just before the change (as resolved at the instant the question was asked).
    public let before: SubscriberAccess
    /// The answer from ``at`` on.
    public let after: SubscriberAccess

    public init(at: Date, before: SubscriberAccess, after: SubscriberAccess) {
        self.at = at
        self.before = before
        self.after = after
    }

    /// The entitlements whose state changes, by id: `nil` where the subscriber had or has none.
    public var entitlementChanges: [(id: String, from: EntitlementState?, to: EntitlementState?)] {
        let old = Dictionary(before.entitlements.map { ($0.id, $0.state) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(after.entitlements.map { ($0.id, $0.state) }, uniquingKeysWith: { first, _ in first })
        return Set(old.keys).union(new.keys).sorted().compactMap { id in
            old[id] == new[id] ? nil : (id, old[id], new[id])
        }
    }

    /// Whether the app-managed trial moves to another phase (active → grace → lockout).
    public var appTrialChanges: Bool { before.appTrial.name != after.appTrial.name }
}
