import Foundation

/// A subscriber's resolved access at one instant: their entitlements with states and sources, their
/// purchase chains, the app-managed trial, quotas, and the gating answers derived from them.
///
/// Built by ``EntitlementResolver``; a value, so it can be cached, compared and sent to clients.
public struct SubscriberAccess: Hashable, Sendable {
    public var appUserID: AppUserID
    public var evaluatedAt: Date
    /// Every entitlement the subscriber has or had, sorted by id; active ones grant access.
    public var entitlements: [EntitlementStatus]
    /// Every purchase chain's status, latest purchase first.
    public var subscriptions: [SubscriptionStatus]
    /// Ask to Buy requests awaiting a parent's answer, by product id.
    public var pendingPurchases: [PendingPurchase]
    public var appTrial: AppTrialPhase
    /// Whether the app's lockout applies (after its trial or a subscription's warning period).
    public var isLockedOut: Bool
    /// Whether a per-subscriber override lifts every limit.
    public var isOverridden: Bool
    /// Access without warnings: the free tier, active entitlements, and lockout's allowance.
    public var access: AccessLevel
    /// Access that comes with a warning: entitlements in a grace period.
    public var warnedAccess: AccessLevel
    /// Every declared quota, sorted by feature.
    public var quotas: [QuotaStatus]
    /// What the subscriber registered against the catalog's limits (paired devices), each with whether
    /// the limit pauses it now; by limit, oldest first.
    public var items: [ItemStatus] = []
    /// When a parent or guardian withdrew consent to the app for this customer (RESCIND_CONSENT), if they did.
    public var consentRescindedAt: Date?
    /// The warning period after a paid subscription ended (the catalog's `appTrial.graceAfterSubscriptionExpiry`),
    /// while it runs: from the subscription's end to the lockout.
    public var expiryGrace: DateInterval?
    /// The first launch the app-managed trial counts from, when there was one.
    public var appTrialStartedAt: Date?
    /// What a person should look at about the subscriber (``AnomalyDetector``): grants or takes nothing.
    public var anomalies: [Anomaly] = []
    /// Why the subscriber has no paid access, and the paywall for it; `nil` while they have it.
    public var lapse: (reason: AccessReason, paywall: PaywallTrigger)? {
        get { lapseReason.flatMap { reason in lapsePaywall.map { (reason, $0) } } }
        set { lapseReason = newValue?.reason; lapsePaywall = newValue?.paywall }
    }

    var lapseReason: AccessReason?
    var lapsePaywall: PaywallTrigger?
    /// The catalog the answer was resolved against.
    public let catalog: Catalog

    init(
        appUserID: AppUserID, evaluatedAt: Date, entitlements: [EntitlementStatus], subscriptions: [SubscriptionStatus],
        pendingPurchases: [PendingPurchase] = [], appTrial: AppTrialPhase, isLockedOut: Bool, isOverridden: Bool, access: AccessLevel, warnedAccess: AccessLevel,
        quotas: [QuotaStatus], lapse: (reason: AccessReason, paywall: PaywallTrigger)?, catalog: Catalog
    ) {
        self.appUserID = appUserID
        self.evaluatedAt = evaluatedAt
        self.entitlements = entitlements
        self.subscriptions = subscriptions
        self.pendingPurchases = pendingPurchases
        self.appTrial = appTrial
        self.isLockedOut = isLockedOut
        self.isOverridden = isOverridden
        self.access = access
        self.warnedAccess = warnedAccess
        self.quotas = quotas
        self.lapseReason = lapse?.reason
        self.lapsePaywall = lapse?.paywall
        self.catalog = catalog
    }

    public static func == (lhs: SubscriberAccess, rhs: SubscriberAccess) -> Bool {
        lhs.appUserID == rhs.appUserID && lhs.evaluatedAt == rhs.evaluatedAt && lhs.entitlements == rhs.entitlements
            && lhs.subscriptions == rhs.subscriptions && lhs.pendingPurchases == rhs.pendingPurchases && lhs.appTrial == rhs.appTrial && lhs.isLockedOut == rhs.isLockedOut
            && lhs.isOverridden == rhs.isOverridden && lhs.access == rhs.access && lhs.warnedAccess == rhs.warnedAccess
            && lhs.quotas == rhs.quotas && lhs.lapseReason == rhs.lapseReason && lhs.lapsePaywall == rhs.lapsePaywall && lhs.items == rhs.items
            && lhs.consentRescindedAt == rhs.consentRescindedAt && lhs.expiryGrace == rhs.expiryGrace && lhs.appTrialStartedAt == rhs.appTrialStartedAt
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(appUserID)
        hasher.combine(evaluatedAt)
        hasher.combine(entitlements)
    }

    /// The active entitlements.
    public var activeEntitlements: [EntitlementStatus] { entitlements.filter(\.isActive) }

    public func entitlement(_ id: String) -> EntitlementStatus? { entitlements.first { $0.id == id } }

    public func quota(_ feature: String) -> QuotaStatus? { quotas.first { $0.feature == feature } }

    /// What a limit allows now, warnings included; unlimited under an override.
    public func allowance(forLimit name: String) -> Allowance {
        AccessGate.allowance(forLimit: name, access: access, warnedAccess: warnedAccess, overridden: isOverridden)
    }

    /// Which of `items` to pause under the current limit: the most recently added first.
    public func pausedItems(forLimit name: String, items: [LimitedItem]) -> [LimitedItem] {
        LimitedItem.paused(items, allowance: allowance(forLimit: name))
    }

    /// May the subscriber use `feature` now? The gate's answer (``AccessGate/decide(_:usage:pendingUse:)``).
    ///
    /// - Parameter usage: for a limit, how many would be in use after the action (pairing a second
    ///   device asks for 2); for a quota, how much this use consumes. Ignored for plain features.
    public func access(_ feature: String, usage: Int = 1) -> AccessDecision {
        gate.decide(feature, usage: usage)
    }

    /// What every access question at ``evaluatedAt`` needs, for the server and the app alike.
    public var gate: AccessGate {
        let warnings = entitlements.filter { $0.isActive && $0.state.warns }.compactMap { status -> AccessGate.Warning? in
            guard let entitlement = catalog.entitlement(status.id) else { return nil }
            if status.state == .gracePeriod {
                return AccessGate.Warning(grants: entitlement.access, reason: .billingIssue(gracePeriodEndsAt: status.expiresAt), paywall: .updatePayment)
            }
            return AccessGate.Warning(
                grants: entitlement.access, reason: .appGrace(lockoutAt: status.expiresAt ?? evaluatedAt),
                paywall: status.source == .expiryGrace ? .renew : .convertTrial)
        }
        let quotas = catalog.quotas.map { definition in
            quota(definition.name)
                ?? QuotaStatus(feature: definition.name, window: definition.window, allowance: .limited(0), used: 0, remaining: 0, resetsAt: nil)
        }
        return AccessGate(
            evaluatedAt: evaluatedAt, features: catalog.features, limits: catalog.limits, quotas: quotas, overridden: isOverridden,
            access: access, warnedAccess: warnedAccess, warnings: warnings,
            grantable: catalog.entitlements.reduce(AccessLevel.nothing) { $0.union($1.access) },
            lapse: lapse.map { AccessGate.Lapse(reason: $0.reason, paywall: $0.paywall) })
    }
}
