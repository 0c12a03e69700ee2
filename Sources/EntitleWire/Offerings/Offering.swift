import Foundation

/// A set of products a paywall offers: subscription groups (products by level, highest first) and the
/// other products (lifetime purchases, non-renewing subscriptions, consumables).
public struct Offering: Codable, Hashable, Sendable {
    public var id: String
    public var subscriptionGroups: [OfferingGroup]
    public var otherProducts: [OfferedProduct]

    public init(id: String, subscriptionGroups: [OfferingGroup], otherProducts: [OfferedProduct]) {
        self.id = id
        self.subscriptionGroups = subscriptionGroups
        self.otherProducts = otherProducts
    }
}
