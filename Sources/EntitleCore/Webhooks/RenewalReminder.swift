import Foundation

/// "Renews in 7 days": when a subscription that will renew is reminded of, once per period.
public struct RenewalReminder: Hashable, Sendable {
    /// How long before the renewal the reminder is due.
    public static let lead: TimeInterval = 7 * 86_400

    public var originalTransactionID: OriginalTransactionID
    public var productID: ProductID
    /// The end of the period that renews: for a subscription billed monthly under a 12-month commitment,
    /// the commitment's end (its monthly instalments are not renewals the customer decides on).
    public var renewsAt: Date
    public var dueAt: Date

    /// The reminders of `access`: one per subscription that will renew (active or in a trial, renewing),
    /// due `lead` before its period (or commitment) ends, when the period is longer than that.
    public static func reminders(_ access: SubscriberAccess) -> [RenewalReminder] {
        access.subscriptions.compactMap { status in
            guard status.kind == .autoRenewable, status.willRenew, status.state == .active || status.state == .trial,
                let end = status.termEndsAt
            else { return nil }
            let due = end.addingTimeInterval(-lead)
            if let start = status.purchasedAt, due <= start { return nil }
            return RenewalReminder(
                originalTransactionID: status.originalTransactionID, productID: status.renewsToProductID ?? status.productID, renewsAt: end, dueAt: due)
        }
    }

    /// The key that makes the reminder once per subscription and period.
    public var periodKey: String { "\(originalTransactionID):\(renewsAt.millisecondsSince1970())" }
}
