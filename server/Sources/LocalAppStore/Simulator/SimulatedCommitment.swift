import Foundation

/// A 12-month commitment billed monthly (Apple's `billingPlanType` `MONTHLY`) as the local App Store
/// plays it: the yearly product paid in instalments, one transaction each, committed to the whole term.
public struct SimulatedCommitment: Hashable, Sendable {
    /// The product committed to (a change of product ends the commitment).
    public let productID: String
    public let startedAt: Date
    /// The billing period the current transaction pays (1-based).
    public internal(set) var billingPeriod: Int
    public let totalBillingPeriods: Int
    public internal(set) var endsAt: Date
    /// What each billing period costs, in milliunits.
    public let instalment: Int64

    /// The commitment's total price: every instalment.
    public var price: Int64 { instalment.multipliedReportingOverflow(by: Int64(totalBillingPeriods)).partialValue }

    /// Whether instalments remain after the current one: owed whatever the customer chooses.
    public var hasPeriodsLeft: Bool { billingPeriod < totalBillingPeriods }

    /// The monthly instalment of a yearly `price`: a twelfth, rounded up to the cent (10 milliunits).
    static func instalment(ofYearly price: Int64, periods: Int) -> Int64 {
        let share = (price + Int64(periods) - 1) / Int64(max(periods, 1))
        return (share + 9) / 10 * 10
    }
}
