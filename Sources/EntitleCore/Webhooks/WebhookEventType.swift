import Foundation

/// The kinds of event Entitle sends to a developer's webhook endpoints. The raw values are the stable
/// `type` names receivers switch on; docs/webhooks.md describes each.
public enum WebhookEventType: String, Hashable, Sendable, Codable, CaseIterable {
    /// The subscriber's entitlements changed: the payload carries them before and after.
    case entitlementChanged = "entitlement_changed"
    /// A purchase reached the subscriber for the first time (a new subscription or one-time purchase).
    case initialPurchase = "initial_purchase"
    /// A subscription renewed into a new period of the same product.
    case renewal
    /// A subscription moved to another product (an upgrade at once), or will at its renewal
    /// (a downgrade or crossgrade: `renewsToProductID`).
    case productChange = "product_change"
    case autoRenewDisabled = "auto_renew_disabled"
    case autoRenewEnabled = "auto_renew_enabled"
    /// A renewal failed: the subscription is in its billing grace period or in billing retry.
    case billingIssue = "billing_issue"
    case gracePeriodStarted = "grace_period_started"
    /// The billing grace period is over: the renewal succeeded, or access ended with it.
    case gracePeriodEnded = "grace_period_ended"
    /// A subscription expired (cancelled, billing retry given up, a price increase declined).
    case expiration
    /// Apple refunded or revoked a purchase.
    case refund
    case refundReversed = "refund_reversed"
    /// A purchase moved to another subscriber (a restore onto another account), on both sides.
    case transfer
    /// A family member gained a purchase through Family Sharing.
    case familySharing = "family_sharing"
    case appTrialStarted = "app_trial_started"
    /// The app-managed trial ended and its warning period before lockout began.
    case appTrialWarning = "app_trial_warning"
    case appTrialLockout = "app_trial_lockout"
    /// The subscriber bought during or after the app-managed trial.
    case appTrialConverted = "app_trial_converted"
    /// A metered quota has nothing left in its window.
    case quotaExhausted = "quota_exhausted"
    /// A registered item (a paired device) stopped working: a downgrade or a lapse left the limit below
    /// the items registered, and this one is among the newest beyond it.
    case itemPaused = "item_paused"
    /// A paused item works again: the limit rose (an upgrade, a renewal) or an older item was removed.
    case itemResumed = "item_resumed"
    /// A parent or guardian withdrew consent to the app for this (minor) customer (Apple's RESCIND_CONSENT):
    /// Apple keeps the app from launching for them; delete what was kept under that consent.
    case consentRescinded = "consent_rescinded"
    /// A subscription that will renew does so in 7 days.
    case renewalReminder = "renewal_reminder"
    /// A subscription that will not renew (auto-renew off, or a non-renewing subscription) ends in 7 days.
    case expiryWarning = "expiry_warning"
    /// A StoreKit free trial ends in 2 days, converting to a paid period or lapsing (`willRenew`).
    case trialEndingSoon = "trial_ending_soon"
    /// Each day of the app-managed trial's grace after the first: the days left before lockout.
    case appTrialGraceReminder = "app_trial_grace_reminder"
    /// The app-managed trial ends in 3 days (its grace begins then).
    case appTrialEndingSoon = "app_trial_ending_soon"
    /// Each day of the warning period after a paid subscription ended, after the first: the days left before lockout.
    case subscriptionGraceReminder = "subscription_grace_reminder"
    /// The subscriber was flagged as an anomaly (docs/anomalies.md): once per kind and subject, when it first appears.
    case anomalyFlagged = "anomaly_flagged"
    /// The customer was deleted (`DELETE /v1/subscribers/{appUserID}`): the one event that names them once
    /// they are erased, its payload redacted once delivered (docs/deletion.md).
    case subscriberDeleted = "subscriber_deleted"
    /// Sent on request, to check an endpoint.
    case test
}
