import Foundation

/// A per-subscriber override that lifts every limit and quota and allows every feature: a
/// developer's debug bypass, or support unblocking one customer.
public struct AccessOverride: Hashable, Sendable, Codable {
    public var id: String
    public var startsAt: Date
    /// `nil` lasts until removed.
    public var endsAt: Date?
    public var removedAt: Date?
    public var reason: String?

    public init(id: String, startsAt: Date, endsAt: Date? = nil, removedAt: Date? = nil, reason: String? = nil) {
        self.id = id
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.removedAt = removedAt
        self.reason = reason
    }

    public func isActive(at now: Date) -> Bool {
        startsAt <= now && endsAt.map { now < $0 } ?? true && removedAt.map { now < $0 } ?? true
    }
}
