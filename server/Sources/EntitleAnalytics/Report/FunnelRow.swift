import EntitleCore
import EntitleWire

/// A funnel row from its counts: the rates and the revenue per viewer follow from them.
extension FunnelRow {
    public init(
        dimension: String, value: String, impressions: Int64, viewers: Int64, closes: Int64, purchasesStarted: Int64,
        purchasesCancelled: Int64, purchasesFailed: Int64, purchased: Int64, trialConversions: Int64, paidConversions: Int64,
        revenue: [String: Int64]
    ) {
        let revenue = revenue.filter { $0.value != 0 }
        self.init(
            dimension: dimension, value: value, impressions: impressions, viewers: viewers, closes: closes,
            bounceRate: AnalyticsReport.rate(closes, impressions), purchasesStarted: purchasesStarted, purchasesCancelled: purchasesCancelled,
            purchasesFailed: purchasesFailed, purchased: purchased, trialConversions: trialConversions,
            trialConversionRate: AnalyticsReport.rate(trialConversions, viewers), paidConversions: paidConversions,
            paidConversionRate: AnalyticsReport.rate(paidConversions, viewers), revenue: revenue,
            revenuePerViewer: viewers > 0 ? revenue.mapValues { Int64(saturating: Double($0) / Double(viewers)) } : [:])
    }
}
