/// Where a subscriber stands, as targeting reads it (docs/growth.md).
public enum Audience: String, Hashable, Sendable, Codable, CaseIterable {
    /// Never bought anything, and no trial running.
    case new
    /// In an introductory free trial or the app-managed trial (its grace included).
    case trialing
    /// Bought before, and nothing paid is active now.
    case lapsed
    /// A paid subscription or purchase is active.
    case active

    /// The audience of a subscriber whose access is `access`.
    public init(_ access: SubscriberAccess) {
        let states = access.subscriptions.map(\.state)
        if states.contains(where: { [.active, .activeNotRenewing, .gracePeriod].contains($0) }) {
            self = .active
        } else if states.contains(.trial) {
            self = .trialing
        } else if !states.isEmpty {
            self = .lapsed
        } else if case .active = access.appTrial {
            self = .trialing
        } else if case .grace = access.appTrial {
            self = .trialing
        } else {
            self = .new
        }
    }
}
