import EntitleCore
import Foundation

/// Something the app's paywall did, for the funnels and experiments on the dashboard (docs/growth.md).
public struct PaywallEvent: Sendable, Hashable, Identifiable {
    public enum Kind: Sendable, Hashable, CaseIterable {
        /// The paywall was shown.
        case shown
        /// It was closed without buying.
        case closed
        /// The user tapped to buy a product.
        case purchaseStarted
        /// The store's sheet was cancelled.
        case purchaseCancelled
        /// The purchase failed (``PaywallEvent/outcome`` gives the ``PurchaseOutcome/code``).
        case purchaseFailed
        /// The purchase went through.
        case purchased

        var core: PaywallEventKind {
            switch self {
            case .shown: .shown
            case .closed: .closed
            case .purchaseStarted: .purchaseStarted
            case .purchaseCancelled: .purchaseCancelled
            case .purchaseFailed: .purchaseFailed
            case .purchased: .purchased
            }
        }

        init(_ core: PaywallEventKind) {
            self = Self.allCases.first { $0.core == core } ?? .shown
        }
    }

    /// The event's ID: reporting it again changes nothing.
    public var id: UUID
    public var kind: Kind
    /// When it happened; `nil` for now on the configured clock when it is recorded.
    public var at: Date?
    /// The offering the paywall showed (``Offering/id``).
    public var offeringID: String
    /// The app's own name for the paywall screen.
    public var paywallID: String
    /// Why it opened: an access answer's reason code (`quota_exhausted`) or the app's own word.
    public var trigger: String?
    /// The gate it opened at: the feature, limit or quota.
    public var feature: String?
    /// The product a purchase event is about.
    public var productID: String?
    /// A failed purchase's ``PurchaseOutcome/code``.
    public var outcome: String?

    public init(
        _ kind: Kind, offeringID: String, paywallID: String, trigger: String? = nil, feature: String? = nil, productID: String? = nil,
        outcome: String? = nil, id: UUID = UUID(), at: Date? = nil
    ) {
        self.id = id
        self.kind = kind
        self.at = at
        self.offeringID = offeringID
        self.paywallID = paywallID
        self.trigger = trigger
        self.feature = feature
        self.productID = productID
        self.outcome = outcome
    }

    /// A paywall opened by an access answer: its reason is the trigger, its feature the gate.
    public init(_ kind: Kind, offeringID: String, paywallID: String, openedBy access: Access, productID: String? = nil, outcome: String? = nil) {
        self.init(kind, offeringID: offeringID, paywallID: paywallID, trigger: access.reason?.code, feature: access.feature, productID: productID, outcome: outcome)
    }

    /// The event as the server takes it, stamped `now` when it has no instant.
    func core(now: Date) -> EntitleCore.PaywallEvent {
        EntitleCore.PaywallEvent(
            id: id, kind: kind.core, at: at ?? now, offeringID: offeringID, paywallID: paywallID, trigger: trigger, feature: feature,
            productID: productID.map(ProductID.init), outcome: outcome)
    }

    init(_ core: EntitleCore.PaywallEvent) {
        self.init(
            Kind(core.kind), offeringID: core.offeringID, paywallID: core.paywallID, trigger: core.trigger, feature: core.feature,
            productID: core.productID?.rawValue, outcome: core.outcome, id: core.id, at: core.at)
    }
}
