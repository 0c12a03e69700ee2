import Foundation

/// Advanced Commerce API data of a transaction or renewal info (Apple's `AdvancedCommerceTransactionInfo`
/// and `AdvancedCommerceRenewalInfo`).
///
/// [advancedCommerceInfo](https://developer.apple.com/documentation/appstoreserverapi/advancedcommercetransactioninfo)
public struct AdvancedCommerceInfo: Codable, Hashable, Sendable {
    public var consistencyToken: String?
    public var descriptors: AdvancedCommerceDescriptors?
    /// In milliunits.
    public var estimatedTax: Int64?
    public var items: [AdvancedCommerceItem]?
    /// ISO 8601 duration.
    public var period: String?
    public var requestReferenceId: String?
    public var taxCode: String?
    /// In milliunits.
    public var taxExclusivePrice: Int64?
    public var taxRate: String?

    public init(
        consistencyToken: String? = nil, descriptors: AdvancedCommerceDescriptors? = nil, estimatedTax: Int64? = nil,
        items: [AdvancedCommerceItem]? = nil, period: String? = nil, requestReferenceId: String? = nil, taxCode: String? = nil,
        taxExclusivePrice: Int64? = nil, taxRate: String? = nil
    ) {
        self.consistencyToken = consistencyToken
        self.descriptors = descriptors
        self.estimatedTax = estimatedTax
        self.items = items
        self.period = period
        self.requestReferenceId = requestReferenceId
        self.taxCode = taxCode
        self.taxExclusivePrice = taxExclusivePrice
        self.taxRate = taxRate
    }
}
