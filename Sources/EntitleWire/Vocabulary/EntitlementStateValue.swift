import Foundation

/// The state of an entitlement (see docs/lifecycle.md); the active ones grant access.
public struct EntitlementStateValue: WireVocabulary {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let trial = EntitlementStateValue(rawValue: "trial")
    public static let active = EntitlementStateValue(rawValue: "active")
    public static let activeNotRenewing = EntitlementStateValue(rawValue: "active_not_renewing")
    public static let gracePeriod = EntitlementStateValue(rawValue: "grace_period")
    public static let billingRetry = EntitlementStateValue(rawValue: "billing_retry")
    public static let expired = EntitlementStateValue(rawValue: "expired")
    public static let revoked = EntitlementStateValue(rawValue: "revoked")
    public static let appGrace = EntitlementStateValue(rawValue: "app_grace")
    public static let lockout = EntitlementStateValue(rawValue: "lockout")
    public static let granted = EntitlementStateValue(rawValue: "granted")
    public static let pending = EntitlementStateValue(rawValue: "pending")

    public static let known: [EntitlementStateValue] = [.trial, .active, .activeNotRenewing, .gracePeriod, .billingRetry, .expired, .revoked, .appGrace, .lockout, .granted, .pending]
}
