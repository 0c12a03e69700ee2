import Foundation

/// A subscription group: auto-renewable products of which a customer holds one at a time.
public struct SubscriptionGroup: Hashable, Sendable {
    public var id: String
    public var name: String?
    /// Product identifiers from the highest level of service (level 1) to the lowest.
    public var productIDsByLevel: [ProductID]

    public init(id: String, name: String? = nil, productIDsByLevel: [ProductID]) {
        self.id = id
        self.name = name
        self.productIDsByLevel = productIDsByLevel
    }
}
