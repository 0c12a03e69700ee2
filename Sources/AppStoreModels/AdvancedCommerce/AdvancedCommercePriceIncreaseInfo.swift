import Foundation

/// A pending price increase of an Advanced Commerce API item.
public struct AdvancedCommercePriceIncreaseInfo: Codable, Hashable, Sendable {
    public var dependentSKUs: [String]?
    /// In milliunits.
    public var price: Int64?
    public var status: String?

    public init(dependentSKUs: [String]? = nil, price: Int64? = nil, status: String? = nil) {
        self.dependentSKUs = dependentSKUs
        self.price = price
        self.status = status
    }
}
