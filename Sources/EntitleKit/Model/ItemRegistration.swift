import EntitleWire

/// What registering an item answered: whether it is registered, the limit's access answer (when refused,
/// why — `limitExceeded` with its maximum, or `notIncluded` — and the paywall, `upgrade`), and every
/// registered item after the request.
public struct ItemRegistration: Sendable, Hashable {
    public var isRegistered: Bool
    /// The limit's answer at the count asked for: the registered items, with this one.
    public var access: Access
    public var items: [Item]

    init(_ wire: ItemRegistrationResponse) {
        isRegistered = wire.registered
        access = Access(wire.access)
        items = wire.items.map(Item.init)
    }
}
