import Foundation

/// A reminder time alone brings to the subscriber (docs/webhooks.md), still ahead when the server
/// answered: what an app without a backend schedules as a local notification, with what its text needs.
public struct ReminderInfo: Codable, Hashable, Sendable {
    /// `renewal`, `expiry_warning`, `trial_ending`, `app_trial_ending`, `app_trial_grace` or
    /// `subscription_grace` (new kinds may be added: show nothing for one you don't know).
    public var kind: String
    /// When to remind.
    public var dueAt: Date
    /// When what it is about ends: the renewal, the subscription or trial's end, the lockout.
    public var endsAt: Date
    /// Whole days from `dueAt` to `endsAt` ("3 days left").
    public var daysLeft: Int
    public var originalTransactionID: String?
    /// The product that renews, ends or converts.
    public var productID: String?
    /// For `trial_ending`: whether the trial converts to a paid period.
    public var willRenew: Bool?

    public init(
        kind: String, dueAt: Date, endsAt: Date, daysLeft: Int, originalTransactionID: String? = nil, productID: String? = nil, willRenew: Bool? = nil
    ) {
        self.kind = kind
        self.dueAt = dueAt
        self.endsAt = endsAt
        self.daysLeft = daysLeft
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.willRenew = willRenew
    }
}
