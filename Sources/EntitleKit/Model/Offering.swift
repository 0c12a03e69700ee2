import EntitleWire

/// A set of products a paywall offers, as the catalog declares it: its packages in the paywall's order,
/// the one it highlights, its metadata, and the same packages by subscription group.
public struct Offering: Sendable, Hashable, Identifiable {
    /// A subscription group's packages by level, the highest level of service first.
    public struct SubscriptionGroup: Sendable, Hashable, Identifiable {
        public var id: String
        public var name: String?
        public var packages: [Package]
    }

    public var id: String
    /// The packages in the order the paywall shows them.
    public var packages: [Package]
    /// The package the paywall highlights.
    public var highlightedPackage: Package?
    /// What the paywall reads (a title, a colour), as the catalog declares it.
    public var metadata: [String: String]
    public var subscriptionGroups: [SubscriptionGroup]

    /// The package of `productID`, if the offering has it.
    public func package(_ productID: String) -> Package? { packages.first { $0.id == productID } }

    init(_ wire: EntitleWire.Offering) {
        let groups = wire.subscriptionGroups.map { group in
            SubscriptionGroup(id: group.id, name: group.name, packages: group.products.map { Package($0, subscriptionGroupID: group.id) })
        }
        let all = groups.flatMap(\.packages) + wire.otherProducts.map { Package($0, subscriptionGroupID: nil) }
        let ordered = wire.productIDs.compactMap { id in all.first { $0.id == id } }
        id = wire.id
        packages = ordered.isEmpty ? all : ordered
        highlightedPackage = wire.highlightedProductID.flatMap { id in all.first { $0.id == id } }
        metadata = wire.metadata
        subscriptionGroups = groups
    }
}
