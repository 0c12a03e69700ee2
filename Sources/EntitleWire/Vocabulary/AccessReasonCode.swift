import Foundation

/// Why access is denied, warned or lapsed.
public struct AccessReasonCode: WireVocabulary {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let noSubscription = AccessReasonCode(rawValue: "no_subscription")
    public static let expired = AccessReasonCode(rawValue: "expired")
    public static let trialExpired = AccessReasonCode(rawValue: "trial_expired")
    public static let revoked = AccessReasonCode(rawValue: "revoked")
    public static let billingIssue = AccessReasonCode(rawValue: "billing_issue")
    public static let appGrace = AccessReasonCode(rawValue: "app_grace")
    public static let notIncluded = AccessReasonCode(rawValue: "not_included")
    public static let limitExceeded = AccessReasonCode(rawValue: "limit_exceeded")
    public static let quotaExhausted = AccessReasonCode(rawValue: "quota_exhausted")
    public static let unknownFeature = AccessReasonCode(rawValue: "unknown_feature")

    public static let known: [AccessReasonCode] = [.noSubscription, .expired, .trialExpired, .revoked, .billingIssue, .appGrace, .notIncluded, .limitExceeded, .quotaExhausted, .unknownFeature]
}
