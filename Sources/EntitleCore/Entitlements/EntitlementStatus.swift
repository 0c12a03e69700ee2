import Foundation

/// One entitlement of one subscriber: whether it is active, in what state, from which source, until when.
public struct EntitlementStatus: Hashable, Sendable, Identifiable {
    public var id: String
    public var state: EntitlementState
    public var source: EntitlementSource
    /// The product that grants it, for purchases.
    public var productID: ProductID?
    /// The end of the current period, grace period, trial or grant; `nil` for lifetime purchases and
    /// open-ended grants.
    public var expiresAt: Date?
    public var willRenew: Bool
    public var periodType: PeriodType?
    /// The product the subscription renews to when that differs (a pending downgrade).
    public var renewsToProductID: ProductID?
    public var isFamilyShared: Bool
    /// The entitlement's limits as the catalog defines them.
    public var limits: [String: Allowance]

    public var isActive: Bool { state.isActive }

    public init(
        id: String, state: EntitlementState, source: EntitlementSource, productID: ProductID? = nil, expiresAt: Date? = nil,
        willRenew: Bool = false, periodType: PeriodType? = nil, renewsToProductID: ProductID? = nil,
        isFamilyShared: Bool = false, limits: [String: Allowance] = [:]
    ) {
        self.id = id
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

    /// Whether this status should represent the entitlement rather than `other`: active before
    /// inactive, then by state, then the later end (open-ended last longest), then by source.
    func isPreferred(over other: EntitlementStatus) -> Bool {
        if isActive != other.isActive { return isActive }
        if state.rank != other.state.rank { return state.rank < other.state.rank }
        let end = expiresAt ?? .distantFuture
        let otherEnd = other.expiresAt ?? .distantFuture
        if end != otherEnd { return end > otherEnd }
        return "\(source)" < "\(other.source)"
    }
}
