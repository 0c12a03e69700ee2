import Foundation

/// The answer to "may this subscriber do this now?": allowed, allowed with a warning to show, or
/// denied with the reason and the paywall to present.
public struct AccessDecision: Hashable, Sendable {
    public enum Outcome: String, Hashable, Sendable, Codable {
        case allowed
        case allowedWithWarning = "allowed_with_warning"
        case denied
    }

    public var feature: String
    public var outcome: Outcome
    /// Why it is denied or warned about; `nil` when plainly allowed.
    public var reason: AccessReason?
    public var paywall: PaywallTrigger?
    /// For limits and quotas: what the subscriber's entitlements allow.
    public var allowance: Allowance?
    /// For quotas: where the subscriber stands before this use.
    public var quota: QuotaStatus?

    public init(
        feature: String, outcome: Outcome, reason: AccessReason? = nil, paywall: PaywallTrigger? = nil,
        allowance: Allowance? = nil, quota: QuotaStatus? = nil
    ) {
        self.feature = feature
        self.outcome = outcome
        self.reason = reason
        self.paywall = paywall
        self.allowance = allowance
        self.quota = quota
    }

    public var isAllowed: Bool { outcome != .denied }
}
