import Foundation

/// The global switch "grant access to everyone until T": every subscriber gets the listed
/// entitlements (all of them when the list is empty) while it lasts. The rollback plan for a
/// broken release or an App Store outage.
public struct OpenAccessWindow: Hashable, Sendable, Codable {
    public var startsAt: Date
    public var endsAt: Date
    public var entitlementIDs: [String]
    public var reason: String?

    public init(startsAt: Date, endsAt: Date, entitlementIDs: [String] = [], reason: String? = nil) {
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.entitlementIDs = entitlementIDs
        self.reason = reason
    }

    public func isActive(at now: Date) -> Bool { startsAt <= now && now < endsAt }
}
