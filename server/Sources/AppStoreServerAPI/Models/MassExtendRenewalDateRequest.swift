import Foundation

/// Extend Subscription Renewal Dates for All Active Subscribers: a product's active subscriptions, by
/// 1 to 90 days, optionally only in some storefronts (ISO 3166-1 alpha-3).
public struct MassExtendRenewalDateRequest: Codable, Hashable, Sendable {
    public var extendByDays: Int
    public var extendReasonCode: Int
    public var requestIdentifier: String
    public var productId: String
    public var storefrontCountryCodes: [String]?

    public init(extendByDays: Int, extendReasonCode: Int, requestIdentifier: String, productId: String, storefrontCountryCodes: [String]? = nil) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
        self.productId = productId
        self.storefrontCountryCodes = storefrontCountryCodes
    }
}
