import Foundation

/// One calendar month (clamped to the report's range): flows in the month and balances at its edges.
public struct MonthSummary: Hashable, Sendable, Codable {
    /// `YYYY-MM`.
    public var month: String
    /// Paid subscriptions active at the end of the day before the month starts.
    public var activeAtStart: Int64
    public var activeAtEnd: Int64
    public var newPaid: Int64
    public var introTrialStarts: Int64
    /// Of the introductory trials started in the month (its cohort), how many converted to paid.
    public var introTrialConversions: Int64
    public var introTrialConversionRate: Double?
    public var appTrialStarts: Int64
    public var appTrialConversions: Int64
    public var appTrialConversionRate: Double?
    public var expirations: Int64
    public var reactivations: Int64
    /// (expirations − reactivations of access that ended in the same month) / activeAtStart: never negative.
    public var churnRate: Double?
    public var refunds: Int64
    public var paidTransactions: Int64
    /// refunds / paid transactions.
    public var refundRate: Double?
    public var renewalOpportunities: Int64
    public var renewals: Int64
    public var renewalRate: Double?
    public var billingRecoveries: Int64
    /// Gross revenue in milliunits, by currency.
    public var revenue: [String: Int64]
    public var refunded: [String: Int64]
    /// Net revenue per average active paid subscription in the month, by currency.
    public var arpu: [String: Int64]
    public var mrrAtEnd: [String: Int64]

    /// Proceeds: revenue less refunds and Apple's commission (30%, 15% after a chain's first paid year or
    /// in the Small Business Program), before taxes, by currency.
    public var proceeds: [String: Int64] = [:]
    /// App-managed trial conversions by the product bought (seed 004's Free → Individual / Family).
    public var appTrialConversionsByProduct: [String: Int64] = [:]
    /// The mean whole days from an app-managed trial's start to its converting purchase (`days_into_trial`).
    public var appTrialMeanDaysToConvert: Double?
    /// Churn by billing period (`P1M`, `P1Y`, …, as the products' periods): that period's products' paid
    /// access that ended in the month (less what came back within it) over those active at its start.
    public var churnRateByPeriod: [String: Double] = [:]

    public init(month: String, activeAtStart: Int64, activeAtEnd: Int64, newPaid: Int64, introTrialStarts: Int64, introTrialConversions: Int64, introTrialConversionRate: Double?, appTrialStarts: Int64, appTrialConversions: Int64, appTrialConversionRate: Double?, expirations: Int64, reactivations: Int64, churnRate: Double?, refunds: Int64, paidTransactions: Int64, refundRate: Double?, renewalOpportunities: Int64, renewals: Int64, renewalRate: Double?, billingRecoveries: Int64, revenue: [String: Int64], refunded: [String: Int64], arpu: [String: Int64], mrrAtEnd: [String: Int64]) {
        self.month = month
        self.activeAtStart = activeAtStart
        self.activeAtEnd = activeAtEnd
        self.newPaid = newPaid
        self.introTrialStarts = introTrialStarts
        self.introTrialConversions = introTrialConversions
        self.introTrialConversionRate = introTrialConversionRate
        self.appTrialStarts = appTrialStarts
        self.appTrialConversions = appTrialConversions
        self.appTrialConversionRate = appTrialConversionRate
        self.expirations = expirations
        self.reactivations = reactivations
        self.churnRate = churnRate
        self.refunds = refunds
        self.paidTransactions = paidTransactions
        self.refundRate = refundRate
        self.renewalOpportunities = renewalOpportunities
        self.renewals = renewals
        self.renewalRate = renewalRate
        self.billingRecoveries = billingRecoveries
        self.revenue = revenue
        self.refunded = refunded
        self.arpu = arpu
        self.mrrAtEnd = mrrAtEnd
    }
}
