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

    @Test("metrics are equal exactly when their names are, and equal metrics and keys hash alike")
    func metricIdentity() {
        for lhs in AnalyticsMetric.allCases {
            for rhs in AnalyticsMetric.allCases {
                #expect((lhs == rhs) == (lhs.rawValue == rhs.rawValue))
            }
            #expect(AnalyticsMetric(rawValue: lhs.rawValue)!.hashValue == lhs.hashValue)
        }
        // Every metric its own hash here (a collision would be allowed, but not for all of them).
        #expect(Set(AnalyticsMetric.allCases.map(\.hashValue)).count == AnalyticsMetric.allCases.count)
        var cells = AnalyticsCells()
        for metric in AnalyticsMetric.allCases { cells[AnalyticsKey(day: 1, metric: metric, product: "p")] = 1 }
        for metric in AnalyticsMetric.allCases { cells[AnalyticsKey(day: 1, metric: AnalyticsMetric(rawValue: metric.rawValue)!, product: "p")]! += 1 }
        #expect(cells.count == AnalyticsMetric.allCases.count && cells.values.allSatisfy { $0 == 2 })
    }
}
