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

    @Test("each check counts its own days: trials that ended in the 30 days before today, this week's paywalls, purchases and renewals, yesterday's revenue against the week before")
    func windows() throws {
        let cells = Self.cells([
            // Introductory trials that ended: 20 in the window, 1 converted (5%); today's and older ones don't count.
            (10, .introTrialEnds, 10, "", ""), (30, .introTrialEnds, 10, "", ""), (20, .introTrialEndConversions, 1, "", ""),
            (0, .introTrialEnds, 50, "", ""), (31, .introTrialEnds, 50, "", ""), (31, .introTrialEndConversions, 50, "", ""),
            // App-managed trials whose grace ended: 10, 3 converted (30%).
            (5, .appTrialEnds, 10, "", ""), (5, .appTrialEndConversions, 3, "", ""),
            // Paywalls this week: 100 shown, 80 closed; a segment's cells and last month's don't count.
            (1, .paywallImpressions, 100, "", ""), (2, .paywallCloses, 80, "", ""), (2, .paywallCloses, 80, "", "paywall:main"),
            (20, .paywallImpressions, 1_000, "", ""),
            // Purchases started this week: 40, 4 failed (10%).
            (3, .paywallPurchasesStarted, 40, "", ""), (3, .paywallPurchasesFailed, 4, "", ""), (9, .paywallPurchasesFailed, 40, "", ""),
            // Revenue: yesterday 70 against a mean day of 100 over the 7 before (a 30% drop) in USD; today's
            // partial day doesn't count; EUR grew.
            (1, .revenue, 70_000, "USD", ""), (0, .revenue, 1, "USD", ""), (2, .revenue, 300_000, "USD", ""), (8, .revenue, 400_000, "USD", ""),
            (9, .revenue, 1_000_000, "USD", ""),
            (1, .revenue, 50_000, "EUR", ""), (5, .revenue, 70_000, "EUR", ""),
            // Renewals due this week: 50, 1 failed to bill (2%: not above 2%).
            (4, .renewalOpportunities, 50, "", ""), (4, .paymentFailures, 1, "", ""), (15, .paymentFailures, 9, "", ""),
        ])
        let health = BusinessHealth(cells: cells, thresholds: .seeds, today: Self.today)
        #expect(health.date == "2026-06-30")
        let trial = try Self.check(health, "trial_conversion")
        #expect(trial.value == 0.05 && trial.threshold == 0.1 && trial.firing)
        let appTrial = try Self.check(health, "app_trial_conversion")
        #expect(appTrial.value == 0.3 && !appTrial.firing)
        let bounce = try Self.check(health, "paywall_bounce")
        #expect(bounce.value == 0.8 && bounce.firing)
        let purchases = try Self.check(health, "purchase_failure")
        #expect(purchases.value == 0.1 && purchases.threshold == 0.05 && purchases.firing)
        let usd = try Self.check(health, "revenue_drop", currency: "USD")
        #expect(usd.value.map { abs($0 - 0.3) < 1e-9 } == true && usd.firing)
        let eur = try Self.check(health, "revenue_drop", currency: "EUR")
        #expect(eur.value == 0 && !eur.firing)
        let failures = try Self.check(health, "payment_failure")
        #expect(failures.value == 0.02 && !failures.firing)
    }

    @Test("an app's own thresholds decide; with nothing to measure a check has no value and doesn't fire")
    func thresholdsAndNothing() throws {
        let cells = Self.cells([(10, .introTrialEnds, 10, "", ""), (10, .introTrialEndConversions, 1, "", "")])
        let lenient = BusinessHealth(cells: cells, thresholds: BusinessThresholds(trialConversionBelow: 0.05), today: Self.today)
        #expect(try Self.check(lenient, "trial_conversion").firing == false)
        let empty = BusinessHealth(cells: [:], thresholds: .seeds, today: Self.today)
        #expect(empty.checks.map(\.check) == ["trial_conversion", "app_trial_conversion", "paywall_bounce", "purchase_failure", "payment_failure"])
        #expect(empty.checks.allSatisfy { $0.value == nil && !$0.firing })
    }

    static func trialPopulation(appConverted: Int) -> AnalyticsCells {
        let contributor = AnalyticsContributor(catalog: Fixtures.exampleCatalog("ScreenTimeRewards"))
        let now = AnalyticsCalendar.start(ofDay: today).addingTimeInterval(12 * 3_600)
        var cells = AnalyticsCells()
        for (user, events) in TrialPopulation.subscribers(now: now, appConverted: appConverted) {
            cells.add(contributor.cells(appUserID: user, events: events))
        }
        return cells
    }

    @Test("trials still running are not unconverted: a healthy app with 14-day and 30-day trials under way raises no trial alert")
    func noFalseTrialAlert() throws {
        let health = BusinessHealth(cells: Self.trialPopulation(appConverted: 6), thresholds: .seeds, today: Self.today)
        // Counting the trials started 8 to 37 days ago, as the check once did, read 5 of 70 (7%) and fired.
        let intro = try Self.check(health, "trial_conversion")
        #expect(intro.value == 0.5)
        #expect(!intro.firing)
        let app = try Self.check(health, "app_trial_conversion")
        #expect(app.value == 0.3)
        #expect(!app.firing)
    }

    @Test("app-managed trials are judged too: 1 of 20 converting fires their own check, not the introductory one")
    func appTrialAlert() throws {
        let health = BusinessHealth(cells: Self.trialPopulation(appConverted: 1), thresholds: .seeds, today: Self.today)
        let app = try Self.check(health, "app_trial_conversion")
        #expect(app.value == 0.05 && app.firing)
        #expect(try Self.check(health, "trial_conversion").firing == false)
    }

    @Test("a renewal that failed to bill (DID_FAIL_TO_RENEW) is a payment failure on the failed period's end")
    func paymentFailureCell() throws {
        let apple = AppleFacts(bundleID: "com.screentimerewards.app", environment: .production)
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
