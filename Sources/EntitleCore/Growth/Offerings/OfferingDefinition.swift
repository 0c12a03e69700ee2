/// An offering the entitlements file declares: the products a paywall shows, in order, the one it
/// highlights, and metadata the paywall reads (its title, a colour, a tagline).
public struct OfferingDefinition: Hashable, Sendable, Codable {
    public var id: String
    public var productIDs: [ProductID]
    public var highlighted: ProductID?
    public var metadata: [String: String]

    public init(id: String, productIDs: [ProductID], highlighted: ProductID? = nil, metadata: [String: String] = [:]) {
        self.id = id
        self.productIDs = productIDs
        self.highlighted = highlighted
        self.metadata = metadata
    }
}
