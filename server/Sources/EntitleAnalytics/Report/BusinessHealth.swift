import EntitleCore
import EntitleWire

/// The business checks of an app on a day, from aggregate cells alone (docs/growth.md): the
/// dashboard's panel and the `/metrics` gauges the alert rules compare with the same thresholds.
public struct BusinessHealth: Hashable, Sendable, Codable {
    /// `YYYY-MM-DD` of the day the checks end on.
    public var date: String
    public var checks: [BusinessCheck]

    /// Introductory trials are judged once they had time to convert: those started 37 to 8 days before.
    static let trialCohort = (first: 37, last: 8)

    /// The checks on day `today` (UTC days, see ``AnalyticsCalendar``) from every cell up to it.
    public init(cells: AnalyticsCells, thresholds: BusinessThresholds, today: Int) {
        var sums: [AnalyticsMetric: Int64] = [:]
        var revenue: [String: (current: Int64, previous: Int64)] = [:]
        let week = (today - 6)...today, previousWeek = (today - 13)...(today - 7)
        let trials = (today - Self.trialCohort.first)...(today - Self.trialCohort.last)
        for (key, value) in cells where key.day <= today {
            switch key.metric {
            case .introTrialStarts, .introTrialConversions:
                if trials.contains(key.day) { sums[key.metric, default: 0].addSaturating(value) }
            case .paywallImpressions, .paywallCloses:
                if key.cohort.isEmpty, week.contains(key.day) { sums[key.metric, default: 0].addSaturating(value) }
            case .renewalOpportunities, .paymentFailures:
                if week.contains(key.day) { sums[key.metric, default: 0].addSaturating(value) }
            case .revenue:
                if week.contains(key.day) { revenue[key.currency, default: (0, 0)].current.addSaturating(value) }
                if previousWeek.contains(key.day) { revenue[key.currency, default: (0, 0)].previous.addSaturating(value) }
            default:
                break
            }
        }
        func ratio(_ part: AnalyticsMetric, _ whole: AnalyticsMetric) -> Double? {
            AnalyticsReport.rate(sums[part] ?? 0, sums[whole] ?? 0)
        }
        var checks: [BusinessCheck] = []
        let conversion = ratio(.introTrialConversions, .introTrialStarts)
        checks.append(BusinessCheck(
            check: "trial_conversion", value: conversion, threshold: thresholds.trialConversionBelow,
            firing: conversion.map { $0 < thresholds.trialConversionBelow } ?? false,
            meaning: "introductory trials started 8 to 37 days ago that converted to paid"))
        let bounce = ratio(.paywallCloses, .paywallImpressions)
        checks.append(BusinessCheck(
            check: "paywall_bounce", value: bounce, threshold: thresholds.paywallBounceAbove,
            firing: bounce.map { $0 > thresholds.paywallBounceAbove } ?? false,
            meaning: "paywalls closed without buying, of those shown in the last 7 days"))
        for (currency, amounts) in revenue.sorted(by: { $0.key < $1.key }) where amounts.previous > 0 {
            let drop = max(0, AnalyticsReport.rate(amounts.previous.saturatingSubtracting(amounts.current), amounts.previous) ?? 0)
            checks.append(BusinessCheck(
                check: "revenue_drop", currency: currency, value: drop, threshold: thresholds.revenueDropAbove,
                firing: drop > thresholds.revenueDropAbove, meaning: "how much less gross revenue the last 7 days brought than the 7 before"))
        }
        let failures = ratio(.paymentFailures, .renewalOpportunities)
        checks.append(BusinessCheck(
            check: "payment_failure", value: failures, threshold: thresholds.paymentFailureAbove,
            firing: failures.map { $0 > thresholds.paymentFailureAbove } ?? false,
            meaning: "renewals due in the last 7 days whose charge failed"))
        self.date = AnalyticsCalendar.isoDate(ofDay: today)
        self.checks = checks
    }
}
