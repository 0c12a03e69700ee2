import Foundation

/// The state of one purchase chain, with Apple's semantics (see docs/lifecycle.md).
public struct SubscriptionStateValue: WireVocabulary {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let trial = SubscriptionStateValue(rawValue: "trial")
    public static let active = SubscriptionStateValue(rawValue: "active")
    public static let activeNotRenewing = SubscriptionStateValue(rawValue: "active_not_renewing")
    public static let gracePeriod = SubscriptionStateValue(rawValue: "grace_period")
    public static let billingRetry = SubscriptionStateValue(rawValue: "billing_retry")
    public static let expired = SubscriptionStateValue(rawValue: "expired")
    public static let revoked = SubscriptionStateValue(rawValue: "revoked")
    public static let upgraded = SubscriptionStateValue(rawValue: "upgraded")

    public static let known: [SubscriptionStateValue] = [.trial, .active, .activeNotRenewing, .gracePeriod, .billingRetry, .expired, .revoked, .upgraded]
}
