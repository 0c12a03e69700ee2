import EntitleWire

/// An arrival path from its counts: the rates follow from them.
extension ArrivalPath {
    public init(arrivals: Int64, sawPaywall: Int64, trials: Int64, paid: Int64) {
        self.init(
            arrivals: arrivals, sawPaywall: sawPaywall, trials: trials, paid: paid, paywallRate: AnalyticsReport.rate(sawPaywall, arrivals),
            trialRate: AnalyticsReport.rate(trials, arrivals), paidRate: AnalyticsReport.rate(paid, arrivals))
    }
}
