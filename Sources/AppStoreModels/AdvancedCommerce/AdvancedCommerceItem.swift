import Foundation

/// An item of an Advanced Commerce API transaction or renewal (Apple's `AdvancedCommerceTransactionItem`
/// and `AdvancedCommerceRenewalItem`, which differ only in which optional fields they carry).
public struct AdvancedCommerceItem: Codable, Hashable, Sendable {
    public var SKU: String?
    public var description: String?
    public var displayName: String?
    /// In milliunits.
    public var price: Int64?
    public var refunds: [AdvancedCommerceRefund]?
    public var revocationDate: Date?
    public var priceIncreaseInfo: AdvancedCommercePriceIncreaseInfo?

    public init(
        SKU: String? = nil, description: String? = nil, displayName: String? = nil, price: Int64? = nil,
        refunds: [AdvancedCommerceRefund]? = nil, revocationDate: Date? = nil, priceIncreaseInfo: AdvancedCommercePriceIncreaseInfo? = nil
    ) {
        self.SKU = SKU
        self.description = description
        self.displayName = displayName
        self.price = price
        self.refunds = refunds
        self.revocationDate = revocationDate
        self.priceIncreaseInfo = priceIncreaseInfo
    }
}
