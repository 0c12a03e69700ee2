import Foundation

/// A subscription billed monthly under a 12-month commitment: where it stands in the commitment.
public struct CommitmentInfo: Codable, Hashable, Sendable {
    /// Which billing period the current payment covers (1-based).
    public var billingPeriod: Int
    public var totalBillingPeriods: Int
    /// When the commitment ends: the subscription ends or renews there, not at a monthly payment.
    public var endsAt: Date
    /// The commitment's total price in milliunits of the subscription's currency, when Apple gave it.
    public var price: Int64?
    /// Whether the subscription continues past `endsAt`.
    public var renews: Bool

    public init(billingPeriod: Int, totalBillingPeriods: Int, endsAt: Date, price: Int64?, renews: Bool) {
        self.billingPeriod = billingPeriod
        self.totalBillingPeriods = totalBillingPeriods
        self.endsAt = endsAt
        self.price = price
        self.renews = renews
    }
}
