/// What one aggregate cell counts. Balances are stored as changes (+ when something starts, − when it
/// ends), so a balance on a day is the sum of its changes up to that day; flows are stored on the day
/// they happen. Amounts are in milliunits of the cell's currency.
public enum AnalyticsMetric: String, Hashable, Sendable, CaseIterable, Codable {
    // Balances (by product; MRR also by currency).
    /// Paid subscriptions active (including billing grace), trials and family-shared excluded.
    case activePaid = "active_paid"
    /// Subscriptions in a StoreKit introductory free trial.
    case activeTrial = "active_trial"
    /// Family-shared subscriptions (a family member's access; no revenue).
    case activeFamilyShared = "active_family_shared"
    /// App-managed trials running (started, not yet over, no purchase yet).
    case activeAppTrial = "active_app_trial"
    /// Monthly recurring revenue of the active paid subscriptions.
    case mrr

    // Flows.
    /// A purchase chain's first paid period (a direct purchase or a trial's conversion).
    case newPaid = "new_paid"
    /// Introductory free trials started, on the trial's first day.
    case introTrialStarts = "intro_trial_starts"
    /// Of those, the ones followed by a paid period, counted on the trial's first day (its cohort).
    case introTrialConversions = "intro_trial_conversions"
    /// App-managed trials started (first launch).
    case appTrialStarts = "app_trial_starts"
    /// Of those, the ones that led to a purchase before the trial (and its grace) ended, on the start day,
    /// by the product bought.
    case appTrialConversions = "app_trial_conversions"
    /// Paid access that ended: expiry, grace end, refund or revocation.
    case expirations
    /// Paid access that started again in a chain whose paid access had ended (resubscribe, recovery).
    case reactivations
    /// Of those, the ones whose paid access had ended in the same calendar month (churn that month
    /// undid), on the day access started again.
    case reactivationsWithinMonth = "reactivations_within_month"
    /// Paid periods that reached their end date, on that day.
    case renewalOpportunities = "renewal_opportunities"
    /// Of those, the ones followed by another paid period.
    case renewals
    /// Renewals Apple reported as billing recoveries, on the renewal's day.
    case billingRecoveries = "billing_recoveries"
    /// Paid transactions (periods and one-time purchases).
    case paidTransactions = "paid_transactions"
    /// One-time (non-subscription) purchases.
    case lifetimePurchases = "lifetime_purchases"
    /// Refunded transactions, on the revocation day.
    case refunds
    /// Gross revenue of paid transactions, on the purchase day.
    case revenue
    /// Refunded amounts, on the revocation day.
    case refunded
    /// Customers by cohort (the month of their first purchase or app-managed trial), on their first day.
    case cohortCustomers = "cohort_customers"
    /// Net revenue (revenue − refunds) by cohort, on the day it happened.
    case cohortRevenue = "cohort_revenue"

    // Paywall funnels (docs/growth.md), by segment: `cohort` holds `paywall:ID`, `offering:ID`,
    // `trigger:WORD` or `feature:NAME` (an empty value when the event gave none), or nothing for
    // every paywall together.
    /// Paywalls shown, on the day.
    case paywallImpressions = "paywall_impressions"
    /// Paywalls closed without buying.
    case paywallCloses = "paywall_closes"
    /// Purchases started from a paywall.
    case paywallPurchasesStarted = "paywall_purchases_started"
    /// Purchases cancelled on the store's sheet.
    case paywallPurchasesCancelled = "paywall_purchases_cancelled"
    /// Purchases that failed.
    case paywallPurchasesFailed = "paywall_purchases_failed"
    /// Purchases the app reported done.
    case paywallPurchased = "paywall_purchased"
    /// Subscribers who saw the segment's paywall for the first time, on that day.
    case paywallViewers = "paywall_viewers"
    /// Of those, the ones who began an introductory free trial at or after that first view, on the view's day.
    case paywallTrialConversions = "paywall_trial_conversions"
    /// Of those, the ones who made a paid purchase at or after that first view, on the view's day.
    case paywallPaidConversions = "paywall_paid_conversions"
    /// Net revenue of those purchases and of their chains' later periods, by currency, on the view's day.
    case paywallRevenue = "paywall_revenue"
    /// Subscribers first seen (see ``SubscriberHistory/firstSeenAt``), on that day.
    case arrivals
    /// Of those, the ones who have seen a paywall since, on the arrival day.
    case arrivalsSawPaywall = "arrivals_saw_paywall"
    /// Of those, the ones who have begun an introductory free trial since.
    case arrivalsTrials = "arrivals_trials"
    /// Of those, the ones who have paid since.
    case arrivalsPaid = "arrivals_paid"

    // Experiments (docs/growth.md), by `cohort` EXPERIMENT/VARIANT, on the enrolment's day unless said.
    /// Subscribers enrolled.
    case experimentExposed = "experiment_exposed"
    /// Of those, the ones who began an introductory free trial within the revenue window.
    case experimentTrials = "experiment_trials"
    /// Of those, the ones who made a paid purchase within the window.
    case experimentPaid = "experiment_paid"
    /// Their net revenue within the window from that purchase on, by currency.
    case experimentRevenue = "experiment_revenue"
    /// The sum of each subscriber's window revenue squared, by currency (milliunits²): the variance.
    case experimentRevenueSquares = "experiment_revenue_squares"
    /// First periods of those purchases that reached their end, on the end's day.
    case experimentRenewalOpportunities = "experiment_renewal_opportunities"
    /// Of those, the ones that renewed.
    case experimentRenewals = "experiment_renewals"

    /// Renewals due whose charge failed (billing retry or grace entered), on the failed period's end.
    case paymentFailures = "payment_failures"

    // Trials judged at their own end (the business checks), whatever their length.
    /// Introductory free trials that reached their end (scheduled, or earlier when refunded or replaced), on that day.
    case introTrialEnds = "intro_trial_ends"
    /// Of those, the ones followed by a paid period, on the trial's end day.
    case introTrialEndConversions = "intro_trial_end_conversions"
    /// App-managed trials whose conversion window (the trial and its grace) ended, on that day.
    case appTrialEnds = "app_trial_ends"
    /// Of those, the ones that converted (as ``appTrialConversions``), on the window's end day.
    case appTrialEndConversions = "app_trial_end_conversions"

    // Proceeds and retention.
    /// The developer's proceeds of paid transactions (revenue less Apple's commission, before taxes), by
    /// currency, on the purchase day; less a refund's share on the revocation day.
    case proceeds
    /// Customers by retention cohort (the month of their first paid day), on that day.
    case retentionCustomers = "retention_customers"
    /// Their paid access as a balance by cohort: +1 when an interval of paid access starts, −1 when it ends.
    case retentionActive = "retention_active"
    /// Whole days from an app-managed trial's start to the purchase that converted it, summed, on the
    /// trial's start day, by the product bought (÷ ``appTrialConversions``: the mean `days_into_trial`).
    case appTrialConversionDays = "app_trial_conversion_days"
    /// Segments by storefront: `cohort` holds the transaction's storefront (Apple's three letters, empty
    /// when none). Paid chains started there, on the first paid day.
    case storefrontNewPaid = "storefront_new_paid"
    /// Gross revenue of paid transactions bought there, by currency, on the purchase day.
    case storefrontRevenue = "storefront_revenue"
    /// Proceeds of those (less refunds' share on the refund's day), by currency.
    case storefrontProceeds = "storefront_proceeds"

    /// Whether the cell belongs to an experiment's results (``ExperimentReport``).
    public var isExperiment: Bool { (AnalyticsMetric.experimentExposed.ordinal...AnalyticsMetric.experimentRenewals.ordinal).contains(ordinal) }

    /// Whether the cell belongs to the funnels (``FunnelReport``) rather than the overview.
    public var isFunnel: Bool { (AnalyticsMetric.paywallImpressions.ordinal...AnalyticsMetric.arrivalsPaid.ordinal).contains(ordinal) }

    /// Whether the cells are changes of a balance.
    public var isBalance: Bool {
        switch self {
        case .activePaid, .activeTrial, .activeFamilyShared, .activeAppTrial, .mrr, .retentionActive: true
        default: false
        }
    }
}

extension AnalyticsMetric {
    // By case, not by name: a `String` enum otherwise hashes and compares its raw value, and every cell
    // key hashes a metric.
    public static func == (lhs: AnalyticsMetric, rhs: AnalyticsMetric) -> Bool { lhs.ordinal == rhs.ordinal }

    public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

    /// The case's position in the declaration.
    var ordinal: UInt8 {
        switch self {
        case .activePaid: 0
        case .activeTrial: 1
        case .activeFamilyShared: 2
        case .activeAppTrial: 3
        case .mrr: 4
        case .newPaid: 5
        case .introTrialStarts: 6
        case .introTrialConversions: 7
        case .appTrialStarts: 8
        case .appTrialConversions: 9
        case .expirations: 10
        case .reactivations: 11
        case .renewalOpportunities: 12
        case .renewals: 13
        case .billingRecoveries: 14
        case .paidTransactions: 15
        case .lifetimePurchases: 16
        case .refunds: 17
        case .revenue: 18
        case .refunded: 19
        case .cohortCustomers: 20
        case .cohortRevenue: 21
        case .paywallImpressions: 22
        case .paywallCloses: 23
        case .paywallPurchasesStarted: 24
        case .paywallPurchasesCancelled: 25
        case .paywallPurchasesFailed: 26
        case .paywallPurchased: 27
        case .paywallViewers: 28
        case .paywallTrialConversions: 29
        case .paywallPaidConversions: 30
        case .paywallRevenue: 31
        case .arrivals: 32
        case .arrivalsSawPaywall: 33
        case .arrivalsTrials: 34
        case .arrivalsPaid: 35
        case .reactivationsWithinMonth: 36
        case .experimentExposed: 37
        case .experimentTrials: 38
        case .experimentPaid: 39
        case .experimentRevenue: 40
        case .experimentRevenueSquares: 41
        case .experimentRenewalOpportunities: 42
        case .experimentRenewals: 43
        case .paymentFailures: 44
        case .introTrialEnds: 45
        case .introTrialEndConversions: 46
        case .appTrialEnds: 47
        case .appTrialEndConversions: 48
        case .proceeds: 49
        case .retentionCustomers: 50
        case .retentionActive: 51
        case .appTrialConversionDays: 52
        case .storefrontNewPaid: 53
        case .storefrontRevenue: 54
        case .storefrontProceeds: 55
        }
    }
}
