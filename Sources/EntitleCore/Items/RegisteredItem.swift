import Foundation

/// One item the subscriber registered against a numeric limit, as its changes leave it.
///
/// The record keeps what makes every order of the same changes give the same result: the
/// registrations since the latest removal (the item is registered while there is one, and counts from
/// the earliest), the latest removal, and the name set last (by instant, then by text).
public struct RegisteredItem: Hashable, Sendable, Codable {
    public let limit: String
    public let id: String
    public private(set) var name: String?
    public private(set) var namedAt: Date?
    /// Registrations after ``removedAt``, earliest first.
    public private(set) var registrations: [Date] = []
    public private(set) var removedAt: Date?

    public init(limit: String, id: String) {
        self.limit = limit
        self.id = id
    }

    /// Whether the item is registered: a registration came after its latest removal.
    public var isRegistered: Bool { !registrations.isEmpty }

    /// When the item was registered (the earliest registration since the latest removal): the order
    /// items are paused in, newest first.
    public var addedAt: Date? { registrations.first }

    /// Applies one change to this item (a change of another item is ignored).
    public mutating func apply(_ change: ItemChange) {
        guard change.limit == limit, change.itemID == id else { return }
        switch change.action {
        case .register:
            if let removedAt, change.at <= removedAt { break }
            if !registrations.contains(change.at) {
                registrations.append(change.at)
                registrations.sort()
            }
        case .remove:
            removedAt = max(removedAt ?? change.at, change.at)
            registrations.removeAll { $0 <= change.at }
        case .rename:
            break
        }
        if let name = change.name, change.action != .remove { setName(name, at: change.at) }
    }

    /// Folds in what another record of the same item knows (a log-in merging an anonymous device's registry).
    public mutating func merge(_ other: RegisteredItem) {
        guard other.limit == limit, other.id == id else { return }
        if let removed = other.removedAt { apply(ItemChange(limit: limit, itemID: id, action: .remove, at: removed)) }
        for registered in other.registrations { apply(ItemChange(limit: limit, itemID: id, action: .register, at: registered)) }
        if let name = other.name, let at = other.namedAt { setName(name, at: at) }
    }

    /// Forgets the item's name (its owner's erasure); later names are taken again.
    public mutating func forgetName() {
        name = nil
        namedAt = nil
    }

    private mutating func setName(_ name: String, at: Date) {
        if let namedAt, (namedAt, self.name ?? "") >= (at, name) { return }
        self.name = name
        namedAt = at
    }
}
