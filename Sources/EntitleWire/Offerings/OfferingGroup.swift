import Foundation

/// A subscription group: its products by level, the highest level of service first.
public struct OfferingGroup: Codable, Hashable, Sendable {
    public var id: String
    public var name: String?
    public var products: [OfferedProduct]

    public init(id: String, name: String?, products: [OfferedProduct]) {
        self.id = id
        self.name = name
        self.products = products
    }
}
