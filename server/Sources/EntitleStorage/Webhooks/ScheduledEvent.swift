import EntitleCore
import Foundation

/// An entry of the durable schedule: a subscriber's event that time alone brings, due at an instant.
/// Its key makes it once per subscriber, kind and period.
public struct ScheduledEvent: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The subscriber's answer changes by time alone (an expiry, a grace period's or trial's end).
        case accessChange = "access_change"
        /// A subscription that will renew does so in 7 days.
        case renewalReminder = "renewal_reminder"
        /// A subscription that won't renew ends in 7 days.
        case expiryWarning = "expiry_warning"
        /// A StoreKit free trial ends in 2 days.
        case trialEnding = "trial_ending"
        /// Another day of the app-managed trial's grace.
        case appTrialGraceReminder = "app_trial_grace_reminder"
        /// The app-managed trial ends in 3 days.
        case appTrialEnding = "app_trial_ending"
        /// Another day of the warning period after a paid subscription ended.
        case subscriptionGraceReminder = "subscription_grace_reminder"
    }

    public var appUserID: AppUserID
    public var kind: Kind
    /// What makes it once per period (the period's end, the change's instant).
    public var periodKey: String
    public var dueAt: Date
    public var firedAt: Date?

    public init(appUserID: AppUserID, kind: Kind, periodKey: String, dueAt: Date, firedAt: Date? = nil) {
        self.appUserID = appUserID
        self.kind = kind
        self.periodKey = periodKey
        self.dueAt = dueAt
        self.firedAt = firedAt
    }
}
