import EntitleWire
import Foundation

/// One purchase chain of the user: an auto-renewable subscription, or a one-time purchase (a lifetime
/// unlock, a non-renewing subscription).
public struct Subscription: Sendable, Hashable, Identifiable {
    /// What was bought.
    public enum Kind: WireMapped {
        case autoRenewable
        case nonRenewing
        case nonConsumable
        case consumable
        case other(String)

        static let cases: [(wire: PurchaseKind, value: Kind)] = [
            (.autoRenewable, .autoRenewable), (.nonRenewing, .nonRenewing), (.nonConsumable, .nonConsumable), (.consumable, .consumable),
        ]

        var otherValue: String? { if case .other(let value) = self { value } else { nil } }


        /// The value as the API spells it.

        public var rawValue: String { wireRawValue }

        public var description: String { wireRawValue }
    }

    /// The original transaction ID: the chain's identity across renewals.
    public var id: String
    public var productID: String
    public var kind: Kind
    public var state: LifecycleState
    public var willRenew: Bool
    /// The product the next renewal moves to (a downgrade or a crossgrade), when the customer chose one.
    public var renewsToProductID: String?
    public var purchasedAt: Date?
    public var expiresAt: Date?
    /// When Apple's billing grace period ends, during a billing issue.
    public var gracePeriodExpiresAt: Date?
    public var periodType: PeriodType
    /// Why it expired, as Apple tells it (`voluntary`, `billing_error`, `price_increase`, …).
    public var expirationReason: String?
    public var isFamilyShared: Bool
    /// `Sandbox`, `Production`, or the local App Store's `Xcode`.
    public var environment: String?
    /// Another active source already grants everything this renewing subscription does: the app may
    /// suggest cancelling it.
    public var isRedundant: Bool
    /// The offer the next renewal redeems (an offer code, a promotional or a win-back offer), when one was
    /// redeemed.
    public var renewalOffer: RenewalOffer?
    /// The transaction of the current (latest) period: what support asks for.
    public var latestTransactionID: String?

    /// An offer a renewal redeems.
    public struct RenewalOffer: Sendable, Hashable {
        public var periodType: PeriodType
        /// The offer's identifier (an offer code's reference, a promotional offer's ID), when Apple gave it.
        public var offerID: String?
    }

    init(_ wire: SubscriptionInfo) {
        id = wire.originalTransactionID
        productID = wire.productID
        kind = Kind(wire.kind)
        state = LifecycleState(rawValue: wire.state.rawValue)
        willRenew = wire.willRenew
        renewsToProductID = wire.renewsToProductID
        purchasedAt = wire.purchasedAt
        expiresAt = wire.expiresAt
        gracePeriodExpiresAt = wire.gracePeriodExpiresAt
        periodType = PeriodType(rawValue: wire.periodType)
        expirationReason = wire.expirationReason
        isFamilyShared = wire.isFamilyShared
        environment = wire.environment
        isRedundant = wire.redundant ?? false
        renewalOffer = wire.renewalOffer.map { RenewalOffer(periodType: PeriodType(rawValue: $0.periodType), offerID: $0.offerID) }
        latestTransactionID = wire.latestTransactionID
    }
}
