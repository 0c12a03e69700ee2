import Foundation

/// A product the local App Store sells, as StoreKit shows one.
public struct LocalProduct: Codable, Hashable, Sendable {
    public var productID: String
    public var displayName: String
    public var displayPrice: String

    public init(productID: String, displayName: String, displayPrice: String) {
        self.productID = productID
        self.displayName = displayName
        self.displayPrice = displayPrice
    }
}
