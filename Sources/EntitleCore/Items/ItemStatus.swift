import Foundation

/// A registered item as an answer reports it: whether the subscriber's limit lets it work now.
///
/// Paused items are those ``LimitedItem/paused(_:allowance:)`` picks under the limit's allowance: the
/// most recently added first, so a downgrade or a lapse pauses the same items everywhere, and an upgrade
/// resumes them.
public struct ItemStatus: Hashable, Sendable {
    public var limit: String
    public var id: String
    public var name: String?
    public var addedAt: Date
    public var isPaused: Bool

    public init(limit: String, id: String, name: String?, addedAt: Date, isPaused: Bool) {
        self.limit = limit
        self.id = id
        self.name = name
        self.addedAt = addedAt
        self.isPaused = isPaused
    }

    /// The registered items of `registry` under each limit's `allowance`, by limit then oldest first.
    public static func statuses(of registry: [String: [String: RegisteredItem]], allowance: (String) -> Allowance) -> [ItemStatus] {
        registry.keys.sorted().flatMap { limit -> [ItemStatus] in
            let registered = (registry[limit] ?? [:]).values.compactMap { item in
                item.addedAt.map { (item, LimitedItem(id: item.id, addedAt: $0)) }
            }
            let paused = Set(LimitedItem.paused(registered.map(\.1), allowance: allowance(limit)).map(\.id))
            return registered.sorted { ($0.1.addedAt, $0.1.id) < ($1.1.addedAt, $1.1.id) }.map { item, counted in
                ItemStatus(limit: limit, id: item.id, name: item.name, addedAt: counted.addedAt, isPaused: paused.contains(item.id))
            }
        }
    }
}
