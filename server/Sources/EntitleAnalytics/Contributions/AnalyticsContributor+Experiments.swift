import EntitleCore
import Foundation

extension AnalyticsContributor {
    /// The experiments' cells (docs/growth.md), each on its enrolment's day under the cohort
    /// `EXPERIMENT/VARIANT`: the subscriber exposed; whether they began an introductory trial, and made a
    /// paid purchase, within the revenue window after enrolment; their net revenue in that window from
    /// that purchase on, and its square (for the variance); and, on its end day, whether that
    /// purchase's first period renewed. A subscriber merged into another counts there.
    func addExperimentCells(of history: SubscriberHistory, purchases: Purchases, to cells: inout AnalyticsCells) {
        guard !history.mergedAway else { return }
        for enrolment in history.experiments.values {
            let cohort = "\(enrolment.experimentID)/\(enrolment.variantID)"
            let day = AnalyticsCalendar.day(of: enrolment.at)
            let windowEnd = enrolment.at.addingTimeInterval(Double(min(max(enrolment.revenueWindowDays, 1), 365)) * 86_400)
            let within = { (date: Date) in date >= enrolment.at && date < windowEnd }
            cells.add(1, to: AnalyticsKey(day: day, metric: .experimentExposed, cohort: cohort))
            if purchases.trialStarts.contains(where: within) {
                cells.add(1, to: AnalyticsKey(day: day, metric: .experimentTrials, cohort: cohort))
            }
            var revenue: [String: Int64] = [:]
            var first: Payment?
            for payments in purchases.chains {
                guard let start = payments.firstIndex(where: { $0.isPurchase && within($0.at) }) else { continue }
                if first.map({ payments[start].at < $0.at }) ?? true { first = payments[start] }
                for payment in payments[start...] where within(payment.at) {
                    revenue[payment.currency, default: 0].addSaturating(payment.net)
                }
                // The purchase's first period: renewed when the chain paid again from its end on.
                if let expires = payments[start].expires {
                    let endDay = AnalyticsCalendar.day(of: expires)
                    cells.add(1, to: AnalyticsKey(day: endDay, metric: .experimentRenewalOpportunities, cohort: cohort))
                    if payments.count > start + 1 {
                        cells.add(1, to: AnalyticsKey(day: endDay, metric: .experimentRenewals, cohort: cohort))
                    }
                }
            }
            guard first != nil else { continue }
            cells.add(1, to: AnalyticsKey(day: day, metric: .experimentPaid, cohort: cohort))
            for (currency, amount) in revenue where amount != 0 {
                cells.add(amount, to: AnalyticsKey(day: day, metric: .experimentRevenue, currency: currency, cohort: cohort))
                let (square, overflow) = amount.multipliedReportingOverflow(by: amount)
                cells.add(overflow ? .max : square, to: AnalyticsKey(day: day, metric: .experimentRevenueSquares, currency: currency, cohort: cohort))
            }
        }
    }
}
