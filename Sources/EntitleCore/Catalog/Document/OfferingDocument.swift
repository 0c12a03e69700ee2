/// An offering in the entitlements file (`offerings`, by ID): its products in the order a paywall
/// shows them, the one it highlights, and metadata the paywall reads.
public struct OfferingDocument: Decodable, Sendable, Hashable {
    public var products: [String]
    public var highlighted: String?
    public var metadata: [String: String]?
}
