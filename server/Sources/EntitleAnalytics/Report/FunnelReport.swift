import EntitleCore
import EntitleWire

/// The funnels computed from aggregate cells alone.
extension FunnelReport {
    /// The dimensions rows group by, in the report's order.
    public static let dimensions = ["all", "paywall", "offering", "trigger", "feature"]

    /// The report of days `from...to` (UTC days, see ``AnalyticsCalendar``) from the cells of those days
    /// (others are ignored).
    public init(cells: AnalyticsCells, from: Int, to: Int) {
        let to = max(from, to)
        var segments: [String: [AnalyticsMetric: Int64]] = [:]
        var revenue: [String: [String: Int64]] = [:]
        var byMonth: [String: [AnalyticsMetric: Int64]] = [:]
        var monthRevenue: [String: [String: Int64]] = [:]
        var currencies = Set<String>()
        for (key, value) in cells where key.metric.isFunnel && (from...to).contains(key.day) {
            let month = AnalyticsCalendar.month(ofDay: key.day)
            if key.metric == .paywallRevenue {
                currencies.insert(key.currency)
                revenue[key.cohort, default: [:]][key.currency, default: 0].addSaturating(value)
                if key.cohort.isEmpty { monthRevenue[month, default: [:]][key.currency, default: 0].addSaturating(value) }
            } else {
                segments[key.cohort, default: [:]][key.metric, default: 0].addSaturating(value)
                if key.cohort.isEmpty { byMonth[month, default: [:]][key.metric, default: 0].addSaturating(value) }
            }
        }

        var rows: [FunnelRow] = []
        for segment in Set(segments.keys).union(revenue.keys) {
            let (dimension, value) = Self.split(segment)
            guard Self.dimensions.contains(dimension) else { continue }
            rows.append(Self.row(dimension: dimension, value: value, segments[segment] ?? [:], revenue[segment] ?? [:]))
        }
        if !rows.contains(where: { $0.dimension == "all" }) { rows.append(Self.row(dimension: "all", value: "", [:], [:])) }
        let order = Dictionary(uniqueKeysWithValues: Self.dimensions.enumerated().map { ($1, $0) })
        rows.sort { left, right in
            if left.dimension != right.dimension { return order[left.dimension, default: 0] < order[right.dimension, default: 0] }
            if left.impressions != right.impressions { return left.impressions > right.impressions }
            return left.value < right.value
        }

        self.init(
            from: AnalyticsCalendar.isoDate(ofDay: from), to: AnalyticsCalendar.isoDate(ofDay: to), currencies: currencies.sorted(),
            segments: rows, path: Self.path(segments[""] ?? [:]),
            months: AnalyticsCalendar.months(from: from, to: to).map { name, _, _ in
                FunnelMonth(
                    month: name, paywalls: Self.row(dimension: "all", value: "", byMonth[name] ?? [:], monthRevenue[name] ?? [:]),
                    path: Self.path(byMonth[name] ?? [:]))
            })
    }

    /// `paywall:main` as (`paywall`, `main`); the empty segment is every paywall (`all`).
    static func split(_ segment: String) -> (String, String) {
        guard !segment.isEmpty else { return ("all", "") }
        guard let colon = segment.firstIndex(of: ":") else { return (segment, "") }
        return (String(segment[..<colon]), String(segment[segment.index(after: colon)...]))
    }

    static func row(dimension: String, value: String, _ counts: [AnalyticsMetric: Int64], _ revenue: [String: Int64]) -> FunnelRow {
        let count = { (metric: AnalyticsMetric) in counts[metric] ?? 0 }
        return FunnelRow(
            dimension: dimension, value: value, impressions: count(.paywallImpressions), viewers: count(.paywallViewers),
            closes: count(.paywallCloses), purchasesStarted: count(.paywallPurchasesStarted),
            purchasesCancelled: count(.paywallPurchasesCancelled), purchasesFailed: count(.paywallPurchasesFailed),
            purchased: count(.paywallPurchased), trialConversions: count(.paywallTrialConversions),
            paidConversions: count(.paywallPaidConversions), revenue: revenue)
    }

    static func path(_ counts: [AnalyticsMetric: Int64]) -> ArrivalPath {
        ArrivalPath(
            arrivals: counts[.arrivals] ?? 0, sawPaywall: counts[.arrivalsSawPaywall] ?? 0, trials: counts[.arrivalsTrials] ?? 0,
            paid: counts[.arrivalsPaid] ?? 0)
    }
}
