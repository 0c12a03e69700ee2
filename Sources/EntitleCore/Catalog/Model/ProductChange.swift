import AppStoreModels
import Foundation

/// A subscriber's move from one auto-renewable subscription to another of the same group, with
/// Apple's rules for when it takes effect.
///
/// Apple ranks a group's subscriptions by level, 1 the highest level of service:
/// - to a higher level: an **upgrade**, at once (Apple refunds the rest of the old period, prorated);
/// - to a lower level: a **downgrade**, at the next renewal;
/// - to the same level: a **crossgrade**, at once when both have the same duration, otherwise at the
///   next renewal.
public struct ProductChange: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        case upgrade
        case downgrade
        case crossgrade
    }

    public enum Timing: String, Hashable, Sendable, Codable {
        /// A new transaction for the new product starts now; the old one is marked upgraded.
        case immediately
        /// Only the renewal product changes (`autoRenewProductId`); the current period runs out first.
        case atNextRenewal = "at_next_renewal"
    }

    public var kind: Kind
    public var timing: Timing

    public init(kind: Kind, timing: Timing) {
        self.kind = kind
        self.timing = timing
    }

    /// The change from `current` to `target`, or `nil` when it isn't one: another group, not
    /// auto-renewable, or the same product.
    public init?(from current: Product, to target: Product) {
        guard current.id != target.id, current.kind == .autoRenewable, target.kind == .autoRenewable,
            let group = current.subscriptionGroupID, group == target.subscriptionGroupID
        else { return nil }
        let from = current.groupLevel ?? 0
        let to = target.groupLevel ?? 0
        if to < from {
            self.init(kind: .upgrade, timing: .immediately)
        } else if to > from {
            self.init(kind: .downgrade, timing: .atNextRenewal)
        } else {
            self.init(kind: .crossgrade, timing: current.period == target.period ? .immediately : .atNextRenewal)
        }
    }

    /// The subtype of Apple's DID_CHANGE_RENEWAL_PREF notification for this change: `UPGRADE`,
    /// `DOWNGRADE`, none for a crossgrade.
    public var notificationSubtype: Subtype? {
        switch kind {
        case .upgrade: .upgrade
        case .downgrade: .downgrade
        case .crossgrade: nil
        }
    }
}
