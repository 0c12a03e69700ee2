import Foundation

/// One entitlement of a subscriber.
public struct EntitlementInfo: Codable, Hashable, Sendable {
    public var id: String
    public var isActive: Bool
    public var state: EntitlementStateValue
    public var source: EntitlementSourceKind
    public var productID: String?
    public var expiresAt: Date?
    public var willRenew: Bool
    public var periodType: String?
    public var renewsToProductID: String?
    public var isFamilyShared: Bool
    /// Limits as numbers; `null` for unlimited.
    public var limits: [String: Int?]

    public init(
        id: String, isActive: Bool, state: EntitlementStateValue, source: EntitlementSourceKind, productID: String?, expiresAt: Date?, willRenew: Bool,
        periodType: String?, renewsToProductID: String?, isFamilyShared: Bool, limits: [String: Int?]
    ) {
        self.id = id
        self.isActive = isActive
        self.state = state
        self.source = source
        self.productID = productID
        self.expiresAt = expiresAt
        self.willRenew = willRenew
        self.periodType = periodType
        self.renewsToProductID = renewsToProductID
        self.isFamilyShared = isFamilyShared
        self.limits = limits
    }
}
