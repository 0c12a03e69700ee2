extension Catalog {
    /// The offering every app has when its entitlements file declares none.
    public static let standardOfferingID = "default"

    /// The offerings a paywall may show, and events may name.
    public var offeringIDs: [String] { offerings.map(\.id) }

    public func offering(_ id: String) -> OfferingDefinition? { offerings.first { $0.id == id } }

    /// The offering of a catalog that declares none: `default`, every product,
    /// in the catalog's order.
    public static func standardOfferings(_ products: [Product]) -> [OfferingDefinition] {
        [OfferingDefinition(id: standardOfferingID, productIDs: products.map(\.id))]
    }
}
