import Foundation

/// The state of one entitlement for one subscriber, as the API reports it.
public enum EntitlementState: String, Hashable, Sendable, Codable, CaseIterable {
    /// A StoreKit free-trial offer, or the app-managed trial.
    case trial
    case active
    /// Paid and active, but auto-renew is off.
    case activeNotRenewing = "active_not_renewing"
    /// Apple's billing grace period: entitled while Apple retries the payment.
    case gracePeriod = "grace_period"
    /// Apple is retrying a failed payment; not entitled.
    case billingRetry = "billing_retry"
    case expired
    /// Refunded or removed from Family Sharing.
    case revoked
    /// The app's warning period after its trial or a subscription's end: entitled, with warnings.
    case appGrace = "app_grace"
    /// The app's lockout after its warning period: not entitled.
    case lockout
    /// Granted by an operator, or by the global open-access switch.
    case granted
    /// An Ask to Buy request awaiting a parent's approval (``PendingPurchase``).
    case pending

    public init(_ state: SubscriptionState) {
        switch state {
        case .trial: self = .trial
        case .active: self = .active
        case .activeNotRenewing: self = .activeNotRenewing
        case .gracePeriod: self = .gracePeriod
        case .billingRetry: self = .billingRetry
        case .expired, .upgraded: self = .expired
        case .revoked: self = .revoked
        }
    }

    public var isActive: Bool {
        switch self {
        case .trial, .active, .activeNotRenewing, .gracePeriod, .appGrace, .granted: true
        case .billingRetry, .expired, .revoked, .lockout, .pending: false
        }
    }

    /// Whether access in this state comes with a warning to show the user.
    public var warns: Bool { self == .gracePeriod || self == .appGrace }

    /// Preference when several sources give the same entitlement: lower ranks first.
    var rank: Int {
        switch self {
        case .active: 0
        case .activeNotRenewing: 1
        case .trial: 2
        case .granted: 3
        case .gracePeriod: 4
        case .appGrace: 5
        case .billingRetry: 6
        case .pending: 7
        case .expired: 8
        case .revoked: 9
        case .lockout: 10
        }
    }
}
