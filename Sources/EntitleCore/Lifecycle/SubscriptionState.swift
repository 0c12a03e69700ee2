import Foundation

/// The lifecycle state of one purchase chain at an instant, with Apple's semantics.
///
/// | state | entitled | App Store Server API `Status` |
/// |---|---|---|
/// | `trial` (free-trial introductory offer) | yes | 1 active |
/// | `active` | yes | 1 active |
/// | `activeNotRenewing` (auto-renew turned off) | yes | 1 active |
/// | `gracePeriod` (billing grace period) | yes | 4 billing grace period |
/// | `billingRetry` | no | 3 billing retry |
/// | `expired` | no | 2 expired |
/// | `revoked` (refund, Family Sharing removal) | no | 5 revoked |
/// | `upgraded` (the latest transaction was upgraded away) | no | — |
public enum SubscriptionState: String, Hashable, Sendable, Codable, CaseIterable {
    case trial
    case active
    case activeNotRenewing = "active_not_renewing"
    case gracePeriod = "grace_period"
    case billingRetry = "billing_retry"
    case expired
    case revoked
    case upgraded

    /// Whether this state grants the product's entitlements.
    public var isEntitled: Bool {
        switch self {
        case .trial, .active, .activeNotRenewing, .gracePeriod: true
        case .billingRetry, .expired, .revoked, .upgraded: false
        }
    }
}
