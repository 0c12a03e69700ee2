import Foundation

/// Why an action is denied or warned about.
public enum AccessReason: Hashable, Sendable {
    /// No entitlement ever; the feature needs one.
    case noSubscription
    /// The subscription that granted the feature expired.
    case expired
    /// A trial ended without a purchase (StoreKit's free trial, or the app's trial after its lockout).
    case trialExpired
    /// The purchase was refunded or removed from Family Sharing.
    case revoked
    /// Apple is retrying a failed payment (billing retry: denied; billing grace period: warned).
    case billingIssue(gracePeriodEndsAt: Date?)
    /// The app's warning period after its trial or a subscription's end; access stops at `lockoutAt`.
    case appGrace(lockoutAt: Date)
    /// The current entitlements don't include this feature.
    case notIncluded
    /// Over a numeric limit; `maximum` is what the subscriber's entitlements allow.
    case limitExceeded(maximum: Int)
    /// A metered quota is used up until `resetsAt`.
    case quotaExhausted(limit: Int, resetsAt: Date?)
    /// The catalog declares no such feature, limit or quota.
    case unknownFeature

    /// The stable code used in API responses.
    public var code: String {
        switch self {
        case .noSubscription: "no_subscription"
        case .expired: "expired"
        case .trialExpired: "trial_expired"
        case .revoked: "revoked"
        case .billingIssue: "billing_issue"
        case .appGrace: "app_grace"
        case .notIncluded: "not_included"
        case .limitExceeded: "limit_exceeded"
        case .quotaExhausted: "quota_exhausted"
        case .unknownFeature: "unknown_feature"
        }
    }
}
