import EntitleCore
import EntitleWire

/// The business checks of an app on a day, from aggregate cells alone (docs/growth.md): the
/// dashboard's panel and the `/metrics` gauges the alert rules compare with the same thresholds.
public struct BusinessHealth: Hashable, Sendable, Codable {
    /// `YYYY-MM-DD` of the day the checks end on.
    public var date: String
    public var checks: [BusinessCheck]

    /// Trials are judged at their own end, whatever their length: those that ended in the 30 days before
    /// today (today's are left out: a conversion renewing at the trial's end may still be arriving).
    static let trialEndWindow = (first: 30, last: 1)

    /// The checks on day `today` (UTC days, see ``AnalyticsCalendar``) from every cell up to it.
    public init(cells: AnalyticsCells, thresholds: BusinessThresholds, today: Int) {
        var sums: [AnalyticsMetric: Int64] = [:]
        var revenue: [String: (yesterday: Int64, weekBefore: Int64)] = [:]
        let week = (today - 6)...today, weekBeforeYesterday = (today - 8)...(today - 2)
        let trialEnds = (today - Self.trialEndWindow.first)...(today - Self.trialEndWindow.last)
        for (key, value) in cells where key.day <= today {
            switch key.metric {
            case .introTrialEnds, .introTrialEndConversions, .appTrialEnds, .appTrialEndConversions:
                if trialEnds.contains(key.day) { sums[key.metric, default: 0].addSaturating(value) }
            case .paywallImpressions, .paywallCloses, .paywallPurchasesStarted, .paywallPurchasesFailed:
                if key.cohort.isEmpty, week.contains(key.day) { sums[key.metric, default: 0].addSaturating(value) }
            case .renewalOpportunities, .paymentFailures:
                if week.contains(key.day) { sums[key.metric, default: 0].addSaturating(value) }
            case .revenue:
                if key.day == today - 1 { revenue[key.currency, default: (0, 0)].yesterday.addSaturating(value) }
                if weekBeforeYesterday.contains(key.day) { revenue[key.currency, default: (0, 0)].weekBefore.addSaturating(value) }
            default:
                break
            }
        }
        func ratio(_ part: AnalyticsMetric, _ whole: AnalyticsMetric) -> Double? {
            AnalyticsReport.rate(sums[part] ?? 0, sums[whole] ?? 0)
        }
        var checks: [BusinessCheck] = []
        /// A check firing when its value is below `below`, or above `above` (one of the two given).
        func add(_ check: String, currency: String? = nil, _ value: Double?, below: Double? = nil, above: Double? = nil, _ meaning: String) {
            var firing = false
            if let value, let below { firing = value < below }
            if let value, let above { firing = value > above }
            checks.append(BusinessCheck(check: check, currency: currency, value: value, threshold: below ?? above ?? 0, firing: firing, meaning: meaning))
        }
        add("trial_conversion", ratio(.introTrialEndConversions, .introTrialEnds), below: thresholds.trialConversionBelow,
            "introductory free trials that ended in the 30 days before today and converted to paid")
        add("app_trial_conversion", ratio(.appTrialEndConversions, .appTrialEnds), below: thresholds.trialConversionBelow,
            "app-managed trials whose trial and grace ended in the 30 days before today, converted to paid")
        add("paywall_bounce", ratio(.paywallCloses, .paywallImpressions), above: thresholds.paywallBounceAbove,
            "paywalls closed without buying, of those shown in the last 7 days")
        add("purchase_failure", ratio(.paywallPurchasesFailed, .paywallPurchasesStarted), above: thresholds.purchaseFailureAbove,
            "purchases started from a paywall in the last 7 days that failed (as the app reported them)")
        for (currency, amounts) in revenue.sorted(by: { $0.key < $1.key }) where amounts.weekBefore > 0 {
            // Yesterday against the mean day of the week before it, in milliunits: seven times yesterday
            // against the week's sum.
            let scaledYesterday = amounts.yesterday.multipliedReportingOverflow(by: 7)
            let current = scaledYesterday.overflow ? Int64.max : scaledYesterday.partialValue
            let drop = max(0, AnalyticsReport.rate(amounts.weekBefore.saturatingSubtracting(current), amounts.weekBefore) ?? 0)
            add("revenue_drop", currency: currency, drop, above: thresholds.revenueDropAbove,
                "how much less gross revenue yesterday brought than the mean day of the 7 before it")
        }
        add("payment_failure", ratio(.paymentFailures, .renewalOpportunities), above: thresholds.paymentFailureAbove,
            "renewals due in the last 7 days whose charge failed")
        self.date = AnalyticsCalendar.isoDate(ofDay: today)
        self.checks = checks
    }
}
