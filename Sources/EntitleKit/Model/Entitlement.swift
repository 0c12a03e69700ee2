import EntitleWire
import Foundation

/// One entitlement of the user (`premium`): whether it is active, in which state, from what source, until
/// when, and the limits it grants.
public struct Entitlement: Sendable, Hashable, Identifiable {
    /// What gives the entitlement.
    public enum Source: WireMapped {
        /// An App Store purchase.
        case purchase
        /// The app's own trial from first launch.
        case appTrial
        /// Access kept for a while after an expiry, as the catalog allows.
        case expiryGrace
        /// A grant by the app's team.
        case grant
        /// The catalog opens the feature to everyone.
        case openAccess
        /// A household the user belongs to shares it.
        case household
        /// An Ask to Buy request.
        case pendingPurchase
        case other(String)

        static let cases: [(wire: EntitlementSourceKind, value: Source)] = [
            (.purchase, .purchase), (.appTrial, .appTrial), (.expiryGrace, .expiryGrace), (.grant, .grant), (.openAccess, .openAccess),
            (.household, .household), (.pendingPurchase, .pendingPurchase),
        ]

        var otherValue: String? { if case .other(let value) = self { value } else { nil } }


        /// The value as the API spells it.

        public var rawValue: String { wireRawValue }

        public var description: String { wireRawValue }
    }

    public var id: String
    /// Whether it grants access (as of the answer's server time; see ``CustomerInfo/activeEntitlements(at:)``).
    public var isActive: Bool
    public var state: LifecycleState
    public var source: Source
    /// The product that gives it, when a purchase does.
    public var productID: String?
    /// When it ends, unless renewed; `nil` for a lifetime purchase or an open-ended grant.
    public var expiresAt: Date?
    public var willRenew: Bool
    /// The kind of period it is in (a trial, an offer, full price).
    public var periodType: PeriodType?
    /// The product the next renewal moves to (a downgrade or a crossgrade at the next renewal).
    public var renewsToProductID: String?
    /// Whether a family member's purchase shares it (Family Sharing).
    public var isFamilyShared: Bool
    /// The numeric limits it grants (`childDevices: .maximum(5)`).
    public var limits: [String: Limit]

    init(_ wire: EntitlementInfo) {
        id = wire.id
        isActive = wire.isActive
        state = LifecycleState(rawValue: wire.state.rawValue)
        source = Source(wire.source)
        productID = wire.productID
        expiresAt = wire.expiresAt
        willRenew = wire.willRenew
        periodType = wire.periodType.map(PeriodType.init(rawValue:))
        renewsToProductID = wire.renewsToProductID
        isFamilyShared = wire.isFamilyShared
        limits = wire.limits.mapValues(Limit.init)
    }
}
