import Foundation

/// Everything an access question needs at one instant, and the one function that answers it
/// (``decide(_:usage:pendingUse:)``): the server answers `GET …/access/{feature}` with it, and EntitleKit
/// answers `access` with the same function on the gate the server signed into each access period, so
/// the app and the server can't disagree (docs/sdk.md, "one rule set").
///
/// A value built from a ``SubscriberAccess`` (``SubscriberAccess/gate``); its JSON is part of the
/// subscriber answer (`accessPeriods[].gate` in docs/openapi.yaml).
public struct AccessGate: Hashable, Sendable, Codable {
    /// The most one use may consume, and the most usage an access question may ask about.
    public static let maximumUsage = 1_000_000

    /// The instant the gate describes.
    public var evaluatedAt: Date
    /// The app's declared features, sorted.
    public var features: [String]
    /// The app's declared numeric limits, sorted.
    public var limits: [String]
    /// Every declared quota's state for the subscriber, sorted by feature.
    public var quotas: [QuotaStatus]
    /// Whether a per-subscriber override lifts every limit.
    public var overridden: Bool
    /// Access without warnings: the free tier, active entitlements, and lockout's allowance.
    public var access: AccessLevel
    /// Access that comes with a warning: entitlements in a grace period.
    public var warnedAccess: AccessLevel
    /// The entitlements in a grace period, in the subscriber's order: what each grants, and the warning
    /// its access comes with.
    public var warnings: [Warning]
    /// The most the app's entitlements grant (their union): whether buying could lift a denial.
    public var grantable: AccessLevel
    /// Why the subscriber has no paid access, and the paywall for it; `nil` while they have it.
    public var lapse: Lapse?

    /// An entitlement in a grace period: what it grants, and the reason and paywall its access carries.
    public struct Warning: Hashable, Sendable, Codable {
        public var grants: AccessLevel
        public var reason: AccessReason
        public var paywall: PaywallTrigger

        public init(grants: AccessLevel, reason: AccessReason, paywall: PaywallTrigger) {
            self.grants = grants
            self.reason = reason
            self.paywall = paywall
        }
    }

    /// Why paid access lapsed, and the paywall that offers it back.
    public struct Lapse: Hashable, Sendable, Codable {
        public var reason: AccessReason
        public var paywall: PaywallTrigger

        public init(reason: AccessReason, paywall: PaywallTrigger) {
            self.reason = reason
            self.paywall = paywall
        }
    }

    public init(
        evaluatedAt: Date, features: [String], limits: [String], quotas: [QuotaStatus], overridden: Bool, access: AccessLevel, warnedAccess: AccessLevel,
        warnings: [Warning], grantable: AccessLevel, lapse: Lapse?
    ) {
        self.evaluatedAt = evaluatedAt
        self.features = features
        self.limits = limits
        self.quotas = quotas
        self.overridden = overridden
        self.access = access
        self.warnedAccess = warnedAccess
        self.warnings = warnings
        self.grantable = grantable
        self.lapse = lapse
    }

    /// What the limit `name` allows now, warnings included; unlimited under an override.
    public func allowance(forLimit name: String) -> Allowance {
        Self.allowance(forLimit: name, access: access, warnedAccess: warnedAccess, overridden: overridden)
    }

    static func allowance(forLimit name: String, access: AccessLevel, warnedAccess: AccessLevel, overridden: Bool) -> Allowance {
        overridden ? .unlimited : max(access.limit(name), warnedAccess.limit(name))
    }

    /// Which of `items` the limit `name` pauses now: ``LimitedItem/paused(_:allowance:)`` under
    /// ``allowance(forLimit:)``, the rule every answer's ``ItemStatus`` follows.
    public func pausedItems(forLimit name: String, items: [LimitedItem]) -> [LimitedItem] {
        LimitedItem.paused(items, allowance: allowance(forLimit: name))
    }

    /// May the subscriber use `feature` now?
    ///
    /// - Parameters:
    ///   - usage: for a limit, how many would be in use after the action (pairing a second device asks
    ///     for 2); for a quota, how much this use consumes. Ignored for plain features.
    ///   - pendingUse: uses of a quota made but not yet counted here (an app's queue while offline):
    ///     counted as used.
    public func decide(_ feature: String, usage: Int = 1, pendingUse: Int = 0) -> AccessDecision {
        if features.contains(feature) {
            return decideFeature(feature)
        } else if limits.contains(feature) {
            return decideLimit(feature, usage: usage)
        } else if let quota = quotas.first(where: { $0.feature == feature }) {
            return decideQuota(quota, usage: usage, pendingUse: pendingUse)
        }
        return AccessDecision(feature: feature, outcome: .denied, reason: .unknownFeature)
    }

    private func decideFeature(_ feature: String) -> AccessDecision {
        if overridden || access.features.contains(feature) {
            return AccessDecision(feature: feature, outcome: .allowed)
        }
        if warnedAccess.features.contains(feature) {
            return warned(feature, matching: { $0.features.contains(feature) })
        }
        return denied(feature, grantable: grantable.features.contains(feature))
    }

    private func decideLimit(_ name: String, usage: Int) -> AccessDecision {
        if overridden || access.limit(name).permits(usage) {
            return AccessDecision(feature: name, outcome: .allowed, allowance: overridden ? .unlimited : access.limit(name))
        }
        let warnedAllowance = warnedAccess.limit(name)
        if warnedAllowance.permits(usage) {
            var decision = warned(name, matching: { $0.limit(name).permits(usage) })
            decision.allowance = warnedAllowance
            return decision
        }
        let allowance = max(access.limit(name), warnedAllowance)
        let grantable = grantable.limit(name).permits(usage)
        if allowance == .limited(0) {
            var decision = denied(name, grantable: grantable)
            decision.allowance = allowance
            return decision
        }
        return AccessDecision(
            feature: name, outcome: .denied, reason: .limitExceeded(maximum: allowance.maximum ?? 0),
            paywall: grantable ? (lapse?.paywall ?? .upgrade) : nil, allowance: allowance)
    }

    private func decideQuota(_ counted: QuotaStatus, usage: Int, pendingUse: Int) -> AccessDecision {
        let status = counted.using(max(pendingUse, 0))
        let allowance = status.allowance
        // Saturating: a use so large that the sum overflows is more than any allowance but unlimited.
        let total = status.used.saturatingAdding(max(usage, 0))
        if allowance.permits(total) {
            return AccessDecision(feature: status.feature, outcome: .allowed, allowance: allowance, quota: status)
        }
        let lifted = grantable.quota(status.feature).permits(total)
        let paywall: PaywallTrigger? = lifted ? (lapse == nil ? .upgrade : lapse?.paywall) : nil
        return AccessDecision(
            feature: status.feature, outcome: .denied,
            reason: .quotaExhausted(limit: allowance.maximum ?? 0, resetsAt: status.resetsAt), paywall: paywall,
            allowance: allowance, quota: status)
    }

    private func warned(_ feature: String, matching grants: (AccessLevel) -> Bool) -> AccessDecision {
        guard let warning = warnings.first(where: { grants($0.grants) }) else {
            // Warned access without an entitlement of the catalog behind it: the app's own grace.
            return AccessDecision(feature: feature, outcome: .allowedWithWarning, reason: .appGrace(lockoutAt: evaluatedAt), paywall: .convertTrial)
        }
        return AccessDecision(feature: feature, outcome: .allowedWithWarning, reason: warning.reason, paywall: warning.paywall)
    }

    private func denied(_ feature: String, grantable: Bool) -> AccessDecision {
        if let lapse {
            return AccessDecision(feature: feature, outcome: .denied, reason: lapse.reason, paywall: grantable ? lapse.paywall : nil)
        }
        return AccessDecision(feature: feature, outcome: .denied, reason: .notIncluded, paywall: grantable ? .upgrade : nil)
    }
}
