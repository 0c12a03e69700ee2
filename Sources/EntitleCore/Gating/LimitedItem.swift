import Foundation

/// Something counted against a numeric limit (a paired child device), with when it was added.
public struct LimitedItem: Hashable, Sendable, Codable {
    public var id: String
    public var addedAt: Date

    public init(id: String, addedAt: Date) {
        self.id = id
        self.addedAt = addedAt
    }

    /// The items to pause when only `allowance` may stay active: the most recently added first
    /// (ties by id, descending), so the oldest items keep working. Deterministic for any input order.
    public static func paused(_ items: [LimitedItem], allowance: Allowance) -> [LimitedItem] {
        guard let maximum = allowance.maximum, items.count > maximum else { return [] }
        let newestFirst = items.sorted { ($0.addedAt, $0.id) > ($1.addedAt, $1.id) }
        return Array(newestFirst.prefix(items.count - maximum))
    }
}
