import EntitleCore
import EntitleWire
import Foundation

/// A reminder still ahead when the server answered (docs/webhooks.md): what an app without a backend
/// schedules as a local notification — when, what about, and the days left its text can say.
///
/// ```swift
/// for reminder in customer.reminders where reminder.dueAt > .now {
///     schedule(reminder.kind, at: reminder.dueAt, daysLeft: reminder.daysLeft)
/// }
/// ```
///
/// The list is the server's, computed with the server's rules: replace every scheduled notification with it
/// whenever the customer info changes (a purchase or a renewal settles reminders the old list still had).
public struct Reminder: Sendable, Hashable {
    public enum Kind: APIValue {
        /// A subscription that will renew does so in 7 days.
        case renewal
        /// A subscription that will not renew ends in 7 days.
        case expiryWarning
        /// A StoreKit free trial ends in 2 days (``Reminder/willRenew``: whether it converts).
        case trialEnding
        /// The app's own trial ends in 3 days.
        case appTrialEnding
        /// Another day of the app's trial's warning days before the lockout.
        case appTrialGrace
        /// Another day of the warning days after a paid subscription ended, before the lockout.
        case subscriptionGrace
        case other(String)

        static let spellings: [(rawValue: String, value: Kind)] = [
            ("renewal", .renewal), ("expiry_warning", .expiryWarning), ("trial_ending", .trialEnding),
            ("app_trial_ending", .appTrialEnding), ("app_trial_grace", .appTrialGrace), ("subscription_grace", .subscriptionGrace),
        ]

        var otherValue: String? { if case .other(let value) = self { value } else { nil } }

        /// The value as the API spells it.
        public var rawValue: String { wireRawValue }

        public var description: String { wireRawValue }
    }

    public var kind: Kind
    /// When to remind.
    public var dueAt: Date
    /// When what it is about ends: the renewal, the subscription's or trial's end, the lockout.
    public var endsAt: Date
    /// Whole days from ``dueAt`` to ``endsAt`` ("3 days left").
    public var daysLeft: Int
    /// The purchase it is about (none for the app's own trial and the warning days).
    public var originalTransactionID: String?
    public var productID: String?
    /// For ``Kind/trialEnding``: whether the trial converts to a paid period.
    public var willRenew: Bool?

    init(_ wire: ReminderInfo) {
        kind = Kind(rawValue: wire.kind)
        dueAt = wire.dueAt
        endsAt = wire.endsAt
        daysLeft = wire.daysLeft
        originalTransactionID = wire.originalTransactionID
        productID = wire.productID
        willRenew = wire.willRenew
    }
}
