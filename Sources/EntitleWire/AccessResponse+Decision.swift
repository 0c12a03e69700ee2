import EntitleCore
import Foundation

extension AccessResponse {
    /// The core's decision as the API answers it: the one mapping the server and EntitleKit share.
    public init(_ decision: AccessDecision, serverTime: Date) {
        self.init(
            feature: decision.feature, outcome: AccessOutcome(rawValue: decision.outcome.rawValue), reason: decision.reason.map(Reason.init),
            paywall: decision.paywall.map { Paywall(rawValue: $0.rawValue) }, allowance: decision.allowance.map { Allowance(maximum: $0.maximum) },
            quota: decision.quota.map(QuotaInfo.init), serverTime: serverTime)
    }
}

extension AccessResponse.Reason {
    /// The core's reason: its code and the figure or instant it comes with.
    public init(_ reason: AccessReason) {
        let code = AccessReasonCode(rawValue: reason.code)
        switch reason {
        case .limitExceeded(let maximum): self.init(code: code, maximum: maximum)
        case .quotaExhausted(let limit, let resetsAt): self.init(code: code, maximum: limit, resetsAt: resetsAt)
        case .appGrace(let lockoutAt): self.init(code: code, lockoutAt: lockoutAt)
        case .billingIssue(let endsAt): self.init(code: code, gracePeriodEndsAt: endsAt)
        case .noSubscription, .expired, .trialExpired, .revoked, .notIncluded, .unknownFeature: self.init(code: code)
        }
    }
}

extension QuotaInfo {
    /// The core's quota status.
    public init(_ status: QuotaStatus) {
        self.init(
            feature: status.feature, window: status.window.description, limit: status.allowance.maximum, used: status.used,
            remaining: status.remaining, resetsAt: status.resetsAt)
    }
}
