import Foundation

/// The type of a webhook event, as receivers switch on it (docs/webhooks.md).
public struct WebhookEventTypeValue: WireVocabulary {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let entitlementChanged = WebhookEventTypeValue(rawValue: "entitlement_changed")
    public static let initialPurchase = WebhookEventTypeValue(rawValue: "initial_purchase")
    public static let renewal = WebhookEventTypeValue(rawValue: "renewal")
    public static let productChange = WebhookEventTypeValue(rawValue: "product_change")
    public static let autoRenewDisabled = WebhookEventTypeValue(rawValue: "auto_renew_disabled")
    public static let autoRenewEnabled = WebhookEventTypeValue(rawValue: "auto_renew_enabled")
    public static let billingIssue = WebhookEventTypeValue(rawValue: "billing_issue")
    public static let gracePeriodStarted = WebhookEventTypeValue(rawValue: "grace_period_started")
    public static let gracePeriodEnded = WebhookEventTypeValue(rawValue: "grace_period_ended")
    public static let expiration = WebhookEventTypeValue(rawValue: "expiration")
    public static let refund = WebhookEventTypeValue(rawValue: "refund")
    public static let refundReversed = WebhookEventTypeValue(rawValue: "refund_reversed")
    public static let transfer = WebhookEventTypeValue(rawValue: "transfer")
    public static let familySharing = WebhookEventTypeValue(rawValue: "family_sharing")
    public static let appTrialStarted = WebhookEventTypeValue(rawValue: "app_trial_started")
    public static let appTrialWarning = WebhookEventTypeValue(rawValue: "app_trial_warning")
    public static let appTrialLockout = WebhookEventTypeValue(rawValue: "app_trial_lockout")
    public static let appTrialConverted = WebhookEventTypeValue(rawValue: "app_trial_converted")
    public static let quotaExhausted = WebhookEventTypeValue(rawValue: "quota_exhausted")
    public static let itemPaused = WebhookEventTypeValue(rawValue: "item_paused")
    public static let itemResumed = WebhookEventTypeValue(rawValue: "item_resumed")
    public static let consentRescinded = WebhookEventTypeValue(rawValue: "consent_rescinded")
    public static let renewalReminder = WebhookEventTypeValue(rawValue: "renewal_reminder")
    public static let expiryWarning = WebhookEventTypeValue(rawValue: "expiry_warning")
    public static let trialEndingSoon = WebhookEventTypeValue(rawValue: "trial_ending_soon")
    public static let appTrialGraceReminder = WebhookEventTypeValue(rawValue: "app_trial_grace_reminder")
    public static let appTrialEndingSoon = WebhookEventTypeValue(rawValue: "app_trial_ending_soon")
    public static let subscriptionGraceReminder = WebhookEventTypeValue(rawValue: "subscription_grace_reminder")
    public static let anomalyFlagged = WebhookEventTypeValue(rawValue: "anomaly_flagged")
    public static let subscriberDeleted = WebhookEventTypeValue(rawValue: "subscriber_deleted")
    public static let test = WebhookEventTypeValue(rawValue: "test")

    public static let known: [WebhookEventTypeValue] = [
        .entitlementChanged, .initialPurchase, .renewal, .productChange, .autoRenewDisabled, .autoRenewEnabled,
        .billingIssue, .gracePeriodStarted, .gracePeriodEnded, .expiration, .refund, .refundReversed, .transfer,
        .familySharing, .appTrialStarted, .appTrialWarning, .appTrialLockout, .appTrialConverted, .quotaExhausted,
        .itemPaused, .itemResumed, .consentRescinded, .renewalReminder, .expiryWarning, .trialEndingSoon, .appTrialGraceReminder, .appTrialEndingSoon, .subscriptionGraceReminder, .anomalyFlagged, .subscriberDeleted, .test,
    ]
}
