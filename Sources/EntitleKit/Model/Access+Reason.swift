import EntitleWire
import Foundation

extension Access {
/// Why access is denied or warned (or why a subscriber has no paid access), with the figure or instant
/// that comes with it.
public enum Reason: Hashable, Sendable, CustomStringConvertible {
    /// Never subscribed.
    case noSubscription
    /// The subscription expired.
    case expired
    /// The app's own trial ended and its warning days passed.
    case trialExpired
    /// Apple refunded or revoked the purchase.
    case revoked
    /// Billing failed; access continues until `gracePeriodEndsAt` when Apple grants a grace period.
    case billingIssue(gracePeriodEndsAt: Date?)
    /// The app's trial ended: access continues, with a warning, until `lockoutAt`.
    case appGrace(lockoutAt: Date?)
    /// The subscriber's entitlements don't include the feature.
    case notIncluded
    /// The limit would be passed: at most `maximum`.
    case limitExceeded(maximum: Int?)
    /// The quota is used up until `resetsAt`.
    case quotaExhausted(limit: Int?, resetsAt: Date?)
    /// The catalog declares no such feature, limit or quota.
    case unknownFeature
    /// A reason this version of EntitleKit doesn't know, as the server named it.
    case other(String)

    init(_ reason: AccessResponse.Reason) {
        switch reason.code {
        case .noSubscription: self = .noSubscription
        case .expired: self = .expired
        case .trialExpired: self = .trialExpired
        case .revoked: self = .revoked
        case .billingIssue: self = .billingIssue(gracePeriodEndsAt: reason.gracePeriodEndsAt)
        case .appGrace: self = .appGrace(lockoutAt: reason.lockoutAt)
        case .notIncluded: self = .notIncluded
        case .limitExceeded: self = .limitExceeded(maximum: reason.maximum)
        case .quotaExhausted: self = .quotaExhausted(limit: reason.maximum, resetsAt: reason.resetsAt)
        case .unknownFeature: self = .unknownFeature
        default: self = .other(reason.code.rawValue)
        }
    }

    /// A lapse's reason: its code alone.
    init(_ code: AccessReasonCode) {
        self.init(AccessResponse.Reason(code: code))
    }

    /// The reason as the API spells it (`quota_exhausted`).
    public var code: String {
        switch self {
        case .noSubscription: AccessReasonCode.noSubscription.rawValue
        case .expired: AccessReasonCode.expired.rawValue
        case .trialExpired: AccessReasonCode.trialExpired.rawValue
        case .revoked: AccessReasonCode.revoked.rawValue
        case .billingIssue: AccessReasonCode.billingIssue.rawValue
        case .appGrace: AccessReasonCode.appGrace.rawValue
        case .notIncluded: AccessReasonCode.notIncluded.rawValue
        case .limitExceeded: AccessReasonCode.limitExceeded.rawValue
        case .quotaExhausted: AccessReasonCode.quotaExhausted.rawValue
        case .unknownFeature: AccessReasonCode.unknownFeature.rawValue
        case .other(let code): code
        }
    }

    public var description: String { code }
}
}
