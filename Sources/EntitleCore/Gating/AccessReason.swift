import Foundation

/// Why an action is denied or warned about.
public enum AccessReason: Hashable, Sendable, Codable {
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

extension AccessReason {
    private enum CodingKeys: String, CodingKey {
        case code, maximum, resetsAt, lockoutAt, gracePeriodEndsAt
    }

    /// As an access answer's `reason`: the code, and the figure or instant it comes with.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let code = try container.decode(String.self, forKey: .code)
        switch code {
        case "no_subscription": self = .noSubscription
        case "expired": self = .expired
        case "trial_expired": self = .trialExpired
        case "revoked": self = .revoked
        case "billing_issue": self = .billingIssue(gracePeriodEndsAt: try container.decodeIfPresent(Date.self, forKey: .gracePeriodEndsAt))
        case "app_grace": self = .appGrace(lockoutAt: try container.decode(Date.self, forKey: .lockoutAt))
        case "not_included": self = .notIncluded
        case "limit_exceeded": self = .limitExceeded(maximum: try container.decode(Int.self, forKey: .maximum))
        case "quota_exhausted":
            self = .quotaExhausted(limit: try container.decode(Int.self, forKey: .maximum), resetsAt: try container.decodeIfPresent(Date.self, forKey: .resetsAt))
        case "unknown_feature": self = .unknownFeature
        default: throw DecodingError.dataCorruptedError(forKey: .code, in: container, debugDescription: "\(code) is not an access reason")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        switch self {
        case .billingIssue(let endsAt): try container.encodeIfPresent(endsAt, forKey: .gracePeriodEndsAt)
        case .appGrace(let lockoutAt): try container.encode(lockoutAt, forKey: .lockoutAt)
        case .limitExceeded(let maximum): try container.encode(maximum, forKey: .maximum)
        case .quotaExhausted(let limit, let resetsAt):
            try container.encode(limit, forKey: .maximum)
            try container.encodeIfPresent(resetsAt, forKey: .resetsAt)
        case .noSubscription, .expired, .trialExpired, .revoked, .notIncluded, .unknownFeature: break
        }
    }
}
