import AppStoreModels
import EntitleAnalytics
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

/// The business checks from cells: each over its own days, against the app's thresholds.
@Suite("BusinessHealth")
struct BusinessHealthTests {
    static let today = AnalyticsCalendar.day(of: ReferenceTime.instant("2026-06-30T12:00:00Z"))

    static func cells(_ entries: [(Int, AnalyticsMetric, Int64, String, String)]) -> AnalyticsCells {
        var cells = AnalyticsCells()
        for (daysAgo, metric, value, currency, cohort) in entries {
            cells.add(value, to: AnalyticsKey(day: today - daysAgo, metric: metric, currency: currency, cohort: cohort))
        }
        return cells
    }

    static func check(_ health: BusinessHealth, _ name: String, currency: String? = nil) throws -> BusinessCheck {
        try #require(health.checks.first { $0.check == name && $0.currency == currency })
    }

    @Test("each check counts its own days: trial cohorts 8 to 37 days old, this week's paywalls and renewals, revenue against the week before")
    func windows() throws {
        let cells = Self.cells([
            // Trials: 20 started in the cohort window, 1 converted (5%); those too young or too old don't count.
            (10, .introTrialStarts, 10, "", ""), (30, .introTrialStarts, 10, "", ""), (20, .introTrialConversions, 1, "", ""),
            (3, .introTrialStarts, 50, "", ""), (60, .introTrialStarts, 50, "", ""), (60, .introTrialConversions, 50, "", ""),
            // Paywalls this week: 100 shown, 80 closed; a segment's cells and last month's don't count.
            (1, .paywallImpressions, 100, "", ""), (2, .paywallCloses, 80, "", ""), (2, .paywallCloses, 80, "", "paywall:main"),
            (20, .paywallImpressions, 1_000, "", ""),
            // Revenue: 700 this week against 1,000 the week before (a 30% drop) in USD; EUR grew.
            (0, .revenue, 400_000, "USD", ""), (6, .revenue, 300_000, "USD", ""), (7, .revenue, 1_000_000, "USD", ""), (13, .revenue, 0, "USD", ""),
            (2, .revenue, 50_000, "EUR", ""), (9, .revenue, 40_000, "EUR", ""),
            // Renewals due this week: 50, 1 failed to bill (2%: not above 2%).
            (4, .renewalOpportunities, 50, "", ""), (4, .paymentFailures, 1, "", ""), (15, .paymentFailures, 9, "", ""),
        ])
        let health = BusinessHealth(cells: cells, thresholds: .seeds, today: Self.today)
        #expect(health.date == "2026-06-30")
        let trial = try Self.check(health, "trial_conversion")
        #expect(trial.value == 0.05 && trial.threshold == 0.1 && trial.firing)
        let bounce = try Self.check(health, "paywall_bounce")
        #expect(bounce.value == 0.8 && bounce.firing)
        let usd = try Self.check(health, "revenue_drop", currency: "USD")
        #expect(usd.value == 0.3 && usd.firing)
        let eur = try Self.check(health, "revenue_drop", currency: "EUR")
        #expect(eur.value == 0 && !eur.firing)
        let failures = try Self.check(health, "payment_failure")
        #expect(failures.value == 0.02 && !failures.firing)
    }

    @Test("an app's own thresholds decide; with nothing to measure a check has no value and doesn't fire")
    func thresholdsAndNothing() throws {
        let cells = Self.cells([(10, .introTrialStarts, 10, "", ""), (10, .introTrialConversions, 1, "", "")])
        let lenient = BusinessHealth(cells: cells, thresholds: BusinessThresholds(trialConversionBelow: 0.05), today: Self.today)
        #expect(try Self.check(lenient, "trial_conversion").firing == false)
        let empty = BusinessHealth(cells: [:], thresholds: .seeds, today: Self.today)
        #expect(empty.checks.map(\.check) == ["trial_conversion", "paywall_bounce", "payment_failure"])
        #expect(empty.checks.allSatisfy { $0.value == nil && !$0.firing })
    }

    @Test("a renewal that failed to bill (DID_FAIL_TO_RENEW) is a payment failure on the failed period's end")
    func paymentFailureCell() throws {
        let apple = AppleFacts(bundleID: "com.screentimerewards.app")
        let catalog = Fixtures.exampleCatalog("ScreenTimeRewards")
        let period = apple.subscription(
            AnalyticsLedger.individual, original: "F", id: "F1", purchase: ReferenceTime.day(0), expires: ReferenceTime.day(30), groupID: "20776E67")
        var failed = period
        failed.signedDate = ReferenceTime.day(30)
        let events = [
            LedgerEvents.appTransaction(1, appUserID: "payer", period),
            LedgerEvents.notification(2, appUserID: "payer", type: .didFailToRenew, subtype: .gracePeriod, transaction: failed),
        ]
        let cells = AnalyticsContributor(catalog: catalog).cells(appUserID: "payer", events: events)
        let end = AnalyticsCalendar.day(of: ReferenceTime.day(30))
        #expect(cells[AnalyticsKey(day: end, metric: .paymentFailures, product: AnalyticsLedger.individual)] == 1)
        #expect(cells[AnalyticsKey(day: end, metric: .renewalOpportunities, product: AnalyticsLedger.individual)] == 1)
    }
}
