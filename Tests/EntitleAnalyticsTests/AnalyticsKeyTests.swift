import EntitleAnalytics
import EntitleCore
import Testing

@Suite("AnalyticsKey")
struct AnalyticsKeyTests {
    @Test("keys order by day, metric name, product, currency, then cohort")
    func order() {
        var generator = SeededGenerator(seed: 7)
        let metrics: [AnalyticsMetric] = [.revenue, .refunds, .activePaid, .activeTrial]
        let texts = ["", "a", "b", "ab"]
        let keys = (0..<300).map { _ in
            AnalyticsKey(
                day: Int.random(in: -1...1, using: &generator), metric: metrics.randomElement(using: &generator)!,
                product: texts.randomElement(using: &generator)!, currency: texts.randomElement(using: &generator)!,
                cohort: texts.randomElement(using: &generator)!)
        }
        for lhs in keys.prefix(60) {
            for rhs in keys {
                let expected = (lhs.day, lhs.metric.rawValue, lhs.product, lhs.currency, lhs.cohort)
                    < (rhs.day, rhs.metric.rawValue, rhs.product, rhs.currency, rhs.cohort)
                #expect((lhs < rhs) == expected)
            }
        }
    }
}
