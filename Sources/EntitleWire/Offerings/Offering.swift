import Foundation

/// A set of products a paywall offers, as the catalog declares it: its products in order, the one it
/// highlights and its metadata; and the same products by subscription group (products by level, highest first) and the
/// other products (lifetime purchases, non-renewing subscriptions, consumables).
public struct Offering: Codable, Hashable, Sendable {
    public var id: String
    /// The offering's products in the order the paywall shows them.
    public var productIDs: [String]
    /// The product the paywall highlights.
    public var highlightedProductID: String?
    /// What the paywall reads (a title, a colour), as the catalog declares it.
    public var metadata: [String: String]
    public var subscriptionGroups: [OfferingGroup]
    public var otherProducts: [OfferedProduct]

    public init(
        id: String, productIDs: [String] = [], highlightedProductID: String? = nil, metadata: [String: String] = [:],
        subscriptionGroups: [OfferingGroup], otherProducts: [OfferedProduct]
    ) {
        self.id = id
        self.productIDs = productIDs
        self.highlightedProductID = highlightedProductID
        self.metadata = metadata
        self.subscriptionGroups = subscriptionGroups
        self.otherProducts = otherProducts
    }
}
