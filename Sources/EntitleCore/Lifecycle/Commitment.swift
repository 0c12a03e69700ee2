import AppStoreModels
import Foundation

/// Where a subscription billed monthly with a 12-month commitment stands (`billingPlanType` `MONTHLY`,
/// Apple's `TransactionCommitmentInfo` and `RenewalCommitmentInfo`).
///
/// Such a subscription is the yearly product paid in monthly instalments: each payment is a transaction
/// whose `expiresDate` is the end of its billing period, but the customer is committed to the whole term.
/// A payment is therefore not a period end the customer chooses at: turning auto-renew off stops the
/// subscription at the commitment's end (``endsAt``), and every instalment before it is still charged.
/// A failed instalment goes through billing grace and retry like any renewal.
public struct Commitment: Hashable, Sendable {
    /// Which billing period of the commitment the current transaction pays for (1-based).
    public var billingPeriod: Int
    /// How many billing periods the commitment has (12 for a monthly plan of a yearly product).
    public var totalBillingPeriods: Int
    /// When the commitment ends: the only instant at which the subscription can end by the customer's choice.
    public var endsAt: Date
    /// The commitment's total price in milliunits, when Apple gave it.
    public var price: Int64?
    /// Whether the subscription continues past ``endsAt`` (`commitmentAutoRenewStatus`, else `autoRenewStatus`).
    public var renews: Bool
    /// How the term after ``endsAt`` is billed, when Apple said (`MONTHLY` or `BILLED_UPFRONT`).
    public var renewalBillingPlan: BillingPlanType?

    public init(
        billingPeriod: Int, totalBillingPeriods: Int, endsAt: Date, price: Int64? = nil, renews: Bool = true,
        renewalBillingPlan: BillingPlanType? = nil
    ) {
        self.billingPeriod = billingPeriod
        self.totalBillingPeriods = totalBillingPeriods
        self.endsAt = endsAt
        self.price = price
        self.renews = renews
        self.renewalBillingPlan = renewalBillingPlan
    }

    /// The commitment `transaction` pays an instalment of, with what `renewal` says of its end; `nil` when
    /// the transaction is not part of one (no commitment info, or no commitment end).
    public init?(_ transaction: JWSTransactionDecodedPayload, renewal: JWSRenewalInfoDecodedPayload?) {
        guard let info = transaction.commitmentInfo, let endsAt = info.commitmentExpiresDate else { return nil }
        let total = max(Int(info.totalBillingPeriods ?? 12), 1)
        let period = min(max(Int(info.billingPeriodNumber ?? 1), 1), total)
        let renewalCommitment = renewal?.commitmentInfo
        let renews = renewalCommitment?.commitmentAutoRenewStatus.map { $0 == .on } ?? renewal?.autoRenewStatus.map { $0 == .on } ?? true
        self.init(
            billingPeriod: period, totalBillingPeriods: total, endsAt: endsAt, price: info.commitmentPrice, renews: renews,
            renewalBillingPlan: renewalCommitment?.commitmentRenewalBillingPlanType ?? renewal?.renewalBillingPlanType)
    }

    /// Billing periods still to be paid after the current one.
    public var periodsLeft: Int { max(totalBillingPeriods - billingPeriod, 0) }

    /// Whether the current transaction pays the commitment's last billing period.
    public var isLastPeriod: Bool { periodsLeft == 0 }
}
