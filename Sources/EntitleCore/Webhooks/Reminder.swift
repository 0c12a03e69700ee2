import Foundation

/// A reminder time alone brings, once each: what the webhook schedule fires (docs/webhooks.md).
///
/// | kind | when | due |
/// |---|---|---|
/// | `renewal` | a subscription that will renew (active or in a StoreKit trial) | `renewalLead` before the period (or a commitment) ends |
/// | `expiryWarning` | a subscription that will *not* renew (auto-renew off, or a non-renewing subscription) | `expiryWarningLead` before it ends |
/// | `trialEnding` | a StoreKit free trial, converting or lapsing | `trialEndingLead` before it ends |
/// | `appTrialEnding` | the app-managed trial, before its end | `appTrialEndingLead` before the trial ends (its grace begins) |
/// | `appTrialGrace` | the app-managed trial's grace days | each day of the grace after its first, until lockout |
/// | `subscriptionGrace` | the warning days after a paid subscription ended (`graceAfterSubscriptionExpiry`) | each day of them after the first, until lockout |
///
/// The list is the same whenever it is computed for the same facts, including reminders already due: the
/// schedule plans the future ones, and when one comes due checks it is still in the list (a renewal, a
/// purchase or auto-renew turned back on since settles it).
public struct Reminder: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case renewal
        case expiryWarning = "expiry_warning"
        case trialEnding = "trial_ending"
        case appTrialGrace = "app_trial_grace"
        case appTrialEnding = "app_trial_ending"
        case subscriptionGrace = "subscription_grace"
    }

    public var kind: Kind
    /// The purchase chain it is about (none for the app-managed trial).
    public var originalTransactionID: OriginalTransactionID?
    /// The product that renews, ends or converts.
    public var productID: ProductID?
    /// When the period, subscription or trial ends (the renewal for `renewal`, the lockout for `appTrialGrace`).
    public var endsAt: Date
    public var dueAt: Date
    /// For `trialEnding`: whether the trial converts to a paid period (auto-renew on).
    public var willRenew: Bool?

    public init(
        kind: Kind, originalTransactionID: OriginalTransactionID?, productID: ProductID?, endsAt: Date, dueAt: Date, willRenew: Bool? = nil
    ) {
        self.kind = kind
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.endsAt = endsAt
        self.dueAt = dueAt
        self.willRenew = willRenew
    }

    /// How long before a renewal the renewal reminder is due.
    public static let renewalLead: TimeInterval = 7 * 86_400
    /// How long before a subscription that won't renew ends its warning is due.
    public static let expiryWarningLead: TimeInterval = 7 * 86_400
    /// How long before a StoreKit free trial ends its reminder is due.
    public static let trialEndingLead: TimeInterval = 2 * 86_400
    /// How long before the app-managed trial ends its warning is due.
    public static let appTrialEndingLead: TimeInterval = 3 * 86_400

    /// The reminders of `access`, each due at a lead before its end that falls after the period began (a
    /// period shorter than the lead has none).
    public static func reminders(_ access: SubscriberAccess) -> [Reminder] {
        var reminders: [Reminder] = []
        for status in access.subscriptions {
            func add(_ kind: Kind, lead: TimeInterval, end: Date?, product: ProductID, willRenew: Bool? = nil) {
                guard let end else { return }
                let due = end.addingTimeInterval(-lead)
                if let start = status.purchasedAt, due <= start { return }
                reminders.append(Reminder(
                    kind: kind, originalTransactionID: status.originalTransactionID, productID: product, endsAt: end, dueAt: due, willRenew: willRenew))
            }
            switch (status.kind, status.state) {
            case (.autoRenewable, .trial):
                add(.trialEnding, lead: trialEndingLead, end: status.expiresAt, product: status.productID, willRenew: status.willRenew)
                if status.willRenew { add(.renewal, lead: renewalLead, end: status.termEndsAt, product: status.renewsToProductID ?? status.productID) }
            case (.autoRenewable, .active) where status.willRenew:
                add(.renewal, lead: renewalLead, end: status.termEndsAt, product: status.renewsToProductID ?? status.productID)
            case (.autoRenewable, .activeNotRenewing), (.nonRenewing, .active):
                add(.expiryWarning, lead: expiryWarningLead, end: status.termEndsAt, product: status.productID)
            default:
                break
            }
        }
        if case .active(let endsAt) = access.appTrial, let started = access.appTrialStartedAt {
            let due = endsAt.addingTimeInterval(-appTrialEndingLead)
            // Due after the trial began: a shorter trial has none.
            if due > started {
                reminders.append(Reminder(kind: .appTrialEnding, originalTransactionID: nil, productID: nil, endsAt: endsAt, dueAt: due))
            }
        }
        if let grace = graceDays(access) {
            // Every 24 hours after the grace began (its first day is the app_trial_warning).
            reminders += daily(.appTrialGrace, from: grace.start, until: grace.lockoutAt)
        }
        if let grace = access.expiryGrace {
            // Every 24 hours after the subscription ended (its first day is the entitlement's change).
            reminders += daily(.subscriptionGrace, from: grace.start, until: grace.end)
        }
        return reminders
    }

    /// A reminder of `kind` every 24 hours after `start` and before `lockoutAt`, a month of days at most.
    private static func daily(_ kind: Kind, from start: Date, until lockoutAt: Date) -> [Reminder] {
        var reminders: [Reminder] = []
        for day in 1...31 {
            let due = start.addingTimeInterval(Double(day) * 86_400)
            guard due < lockoutAt else { break }
            reminders.append(Reminder(kind: kind, originalTransactionID: nil, productID: nil, endsAt: lockoutAt, dueAt: due))
        }
        return reminders
    }

    /// The app-managed trial's grace, while the trial or its grace runs: when it starts and locks out.
    private static func graceDays(_ access: SubscriberAccess) -> (start: Date, lockoutAt: Date)? {
        switch access.appTrial {
        case .active(let endsAt):
            guard let grace = access.catalog.appTrial?.grace else { return nil }
            let lockout = grace.added(to: endsAt)
            return lockout > endsAt ? (endsAt, lockout) : nil
        case .grace(let ended, let lockoutAt):
            return (ended, lockoutAt)
        case .notStarted, .lockout, .superseded:
            return nil
        }
    }

    /// The key that makes the reminder once: its kind, chain and end, and for the grace days the day.
    public var periodKey: String {
        switch kind {
        case .renewal:
            // Kept as renewal reminders have always been keyed, so none scheduled before fires twice.
            "\(originalTransactionID?.rawValue ?? ""):\(endsAt.millisecondsSince1970())"
        case .expiryWarning, .trialEnding, .appTrialEnding:
            "\(kind.rawValue):\(originalTransactionID?.rawValue ?? ""):\(endsAt.millisecondsSince1970())"
        case .appTrialGrace, .subscriptionGrace:
            "\(kind.rawValue):\(endsAt.millisecondsSince1970()):\(dueAt.millisecondsSince1970())"
        }
    }
}
