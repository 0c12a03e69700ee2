import Foundation

/// An entitlement granted by an operator (a support grant, a promotion) for a period.
public struct EntitlementGrant: Hashable, Sendable, Codable {
    public var id: String
    public var entitlementID: String
    public var startsAt: Date
    /// The end of the grant; `nil` grants until revoked.
    public var endsAt: Date?
    /// When an operator revoked the grant, if they did.
    public var revokedAt: Date?
    public var reason: String?

    public init(id: String, entitlementID: String, startsAt: Date, endsAt: Date? = nil, revokedAt: Date? = nil, reason: String? = nil) {
        self.id = id
        self.entitlementID = entitlementID
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.revokedAt = revokedAt
        self.reason = reason
    }

    public func isActive(at now: Date) -> Bool {
        startsAt <= now && endsAt.map { now < $0 } ?? true && revokedAt.map { now < $0 } ?? true
    }
}
