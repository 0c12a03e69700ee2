import EntitleWire

/// Where an entitlement or a subscription stands, with Apple's semantics (docs/lifecycle.md): one
/// vocabulary for both, so an app switches over one enum.
public enum LifecycleState: APIValue {
    /// A free trial (an introductory offer, or the app's own trial).
    case trial
    case active
    /// Active, but it will not renew.
    case activeNotRenewing
    /// Billing failed; Apple's grace period keeps access.
    case gracePeriod
    /// Billing failed and Apple is retrying; no access.
    case billingRetry
    case expired
    /// Refunded or revoked.
    case revoked
    /// A subscription replaced by a higher level of the same group.
    case upgraded
    /// The app's trial ended; its warning days keep access.
    case appGrace
    /// The app's trial and its warning days ended.
    case lockout
    /// Granted by the app's team.
    case granted
    /// An Ask to Buy request awaits a parent.
    case pending
    /// A state this version of EntitleKit doesn't know, as the server named it.
    case other(String)

    static let spellings: [(rawValue: String, value: LifecycleState)] = [
        (EntitlementStateValue.trial.rawValue, .trial), (EntitlementStateValue.active.rawValue, .active),
        (EntitlementStateValue.activeNotRenewing.rawValue, .activeNotRenewing), (EntitlementStateValue.gracePeriod.rawValue, .gracePeriod),
        (EntitlementStateValue.billingRetry.rawValue, .billingRetry), (EntitlementStateValue.expired.rawValue, .expired),
        (EntitlementStateValue.revoked.rawValue, .revoked), (SubscriptionStateValue.upgraded.rawValue, .upgraded),
        (EntitlementStateValue.appGrace.rawValue, .appGrace), (EntitlementStateValue.lockout.rawValue, .lockout),
        (EntitlementStateValue.granted.rawValue, .granted), (EntitlementStateValue.pending.rawValue, .pending),
    ]

    var otherValue: String? { if case .other(let value) = self { value } else { nil } }

    /// The state as the API spells it (`grace_period`).
    public var rawValue: String { wireRawValue }
    public var description: String { wireRawValue }
}
