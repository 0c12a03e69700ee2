import EntitleCore
import EntitleWire

/// An experiment's results computed from the aggregate cells.
extension ExperimentReport {
    /// The results of `experiment` on day `today` (UTC days, see ``AnalyticsCalendar``) from `cells`
    /// (every day's). A renewal is judged once its purchase's first period has ended: the opportunities
    /// and renewals of periods ending after `today` are not counted yet (docs/growth.md).
    public init(experiment: Experiment, cells: AnalyticsCells, today: Int) {
        var counts: [String: [AnalyticsMetric: Int64]] = [:]
        var sums: [String: [String: (sum: Int64, squares: Int64)]] = [:]
        var seen = Set<String>()
        let prefix = experiment.id + "/"
        for (key, value) in cells where key.metric.isExperiment && key.cohort.hasPrefix(prefix) {
            let variant = String(key.cohort.dropFirst(prefix.count))
            switch key.metric {
            case .experimentRenewalOpportunities where key.day > today, .experimentRenewals where key.day > today:
                continue
            case .experimentRevenue:
                seen.insert(key.currency)
                sums[variant, default: [:]][key.currency, default: (0, 0)].sum.addSaturating(value)
            case .experimentRevenueSquares:
                seen.insert(key.currency)
                sums[variant, default: [:]][key.currency, default: (0, 0)].squares.addSaturating(value)
            default:
                counts[variant, default: [:]][key.metric, default: 0].addSaturating(value)
            }
        }
        let currencies = seen.sorted()
        func count(_ variant: String, _ metric: AnalyticsMetric) -> Int64 { counts[variant]?[metric] ?? 0 }
        let control = experiment.variants.first?.id ?? ""
        let variants = experiment.variants.map { variant in
            let id = variant.id
            let exposed = count(id, .experimentExposed)
            let compared = id != control
            var revenuePerExposed: [String: Double] = [:]
            var revenueComparison: [String: Comparison] = [:]
            for currency in currencies {
                let mine = sums[id]?[currency] ?? (0, 0)
                if exposed > 0 { revenuePerExposed[currency] = Double(mine.sum) / Double(exposed) }
                let theirs = sums[control]?[currency] ?? (0, 0)
                if compared, let comparison = Comparison.means(
                    control: (Double(theirs.sum), Double(theirs.squares), count(control, .experimentExposed)),
                    variant: (Double(mine.sum), Double(mine.squares), exposed))
                {
                    revenueComparison[currency] = comparison
                }
            }
            func proportion(_ metric: AnalyticsMetric, of whole: AnalyticsMetric) -> Comparison? {
                compared ? Comparison.proportions(control: (count(control, metric), count(control, whole)), variant: (count(id, metric), count(id, whole))) : nil
            }
            return VariantResult(
                variantID: id, exposed: exposed, trials: count(id, .experimentTrials),
                trialRate: AnalyticsReport.rate(count(id, .experimentTrials), exposed), paid: count(id, .experimentPaid),
                paidRate: AnalyticsReport.rate(count(id, .experimentPaid), exposed), revenuePerExposed: revenuePerExposed,
                renewalOpportunities: count(id, .experimentRenewalOpportunities), renewals: count(id, .experimentRenewals),
                renewalRate: AnalyticsReport.rate(count(id, .experimentRenewals), count(id, .experimentRenewalOpportunities)),
                trialComparison: proportion(.experimentTrials, of: .experimentExposed), paidComparison: proportion(.experimentPaid, of: .experimentExposed),
                revenueComparison: revenueComparison,
                renewalComparison: proportion(.experimentRenewals, of: .experimentRenewalOpportunities))
        }
        self.init(experimentID: experiment.id, variants: variants, currencies: currencies)
    }
}
