import AppStoreModels
import EntitleAnalytics
import EntitleCore
import EntitleTestSupport
import EntitleWire
import Foundation
import Testing

/// Every metric of the report against ``AnalyticsLedger``, computed by hand (see its documentation
/// for the story): January to March 2026.
@Suite("AnalyticsReport")
struct AnalyticsReportTests {
    static let catalog = Fixtures.exampleCatalog("ScreenTimeRewards")
    static let cells: AnalyticsCells = {
        let contributor = AnalyticsContributor(catalog: catalog)
        var cells = AnalyticsCells()
        for user: AppUserID in ["alice", "bob", "carol", "dan", "erin"] {
            cells.add(contributor.cells(appUserID: user, events: AnalyticsLedger.events.filter { $0.appUserID == user }))
        }
        return cells
    }()
    static let report = AnalyticsReport(cells: cells, catalog: catalog, from: day("2026-01-01"), to: day("2026-03-31"))

    static func day(_ date: String) -> Int { AnalyticsCalendar.day(of: ReferenceTime.instant("\(date)T00:00:00Z")) }
    func month(_ name: String) throws -> MonthSummary { try #require(Self.report.months.first { $0.month == name }) }
    func point(_ date: String) throws -> DailyPoint { try #require(Self.report.daily.first { $0.date == date }) }

    @Test("the range is three months of daily points")
    func range() {
        #expect(Self.report.from == "2026-01-01")
        #expect(Self.report.to == "2026-03-31")
        #expect(Self.report.daily.count == 90)
        #expect(Self.report.months.map(\.month) == ["2026-01", "2026-02", "2026-03"])
        #expect(Self.report.currencies == ["USD"])
    }

    @Test("active paid subscriptions: upgrade and grace keep access continuous, the refund ends it, trials and family sharing are apart")
    func activePaid() throws {
        #expect(try point("2026-01-04").activePaid == 0)
        #expect(try point("2026-01-05").activePaid == 1)  // bob
        #expect(try point("2026-01-17").activePaid == 2)  // alice converts
        #expect(try point("2026-01-20").activePaid == 2)  // bob's upgrade: one subscription throughout
        #expect(try point("2026-02-01").activePaid == 3)  // carol
        #expect(try point("2026-02-10").activePaid == 2)  // carol refunded
        #expect(try point("2026-02-18").activePaid == 2)  // alice in grace counts
        #expect(try point("2026-03-20").activePaid == 1)  // bob expired
        #expect(try point("2026-01-12").activeTrials == 1)
        #expect(try point("2026-01-17").activeTrials == 0)
        #expect(try point("2026-03-05").activeTrials == 1)  // dan
        #expect(try point("2026-02-15").activeFamilyShared == 1)  // erin
        #expect(try point("2026-03-01").activeFamilyShared == 0)
        #expect(try point("2026-01-09").activeAppTrials == 1)  // alice until her introductory trial
        #expect(try point("2026-01-10").activeAppTrials == 0)
        #expect(try point("2026-01-31").activeAppTrials == 1)  // carol until hers
        #expect(try point("2026-02-01").activeAppTrials == 0)
    }

    @Test("MRR counts paid subscriptions at their monthly price, not trials or family sharing; ARR is twelve times")
    func mrr() throws {
        #expect(try point("2026-01-05").mrr == ["USD": 7_990])
        #expect(try point("2026-01-20").mrr == ["USD": 20_980])  // alice 7.99 + bob's Family 12.99
        #expect(try point("2026-02-05").mrr == ["USD": 33_970])  // + carol
        #expect(try point("2026-02-15").mrr == ["USD": 20_980])
        #expect(try point("2026-03-31").mrr == ["USD": 7_990])
        #expect(Self.report.current.mrr == ["USD": 7_990])
        #expect(Self.report.current.arr == ["USD": 95_880])
        #expect(Self.report.current.activePaid == 1)
        #expect(try month("2026-01").mrrAtEnd == ["USD": 20_980])
    }

    @Test("new paid subscriptions, trial starts and conversion by trial cohort, for both kinds of trial")
    func trials() throws {
        let january = try month("2026-01"), february = try month("2026-02"), march = try month("2026-03")
        #expect([january.newPaid, february.newPaid, march.newPaid] == [2, 1, 0])
        #expect([january.introTrialStarts, march.introTrialStarts] == [1, 1])
        #expect([january.introTrialConversions, march.introTrialConversions] == [1, 0])
        #expect(january.introTrialConversionRate == 1)
        #expect(march.introTrialConversionRate == 0)
        #expect(february.introTrialConversionRate == nil)
        #expect(january.appTrialStarts == 2)
        #expect(january.appTrialConversions == 2)
        #expect(january.appTrialConversionRate == 1)
        #expect(february.appTrialStarts == 0)
    }

    @Test("churn is expirations, less returns within the month, over the active at the month's start; the refund and the expiry count")
    func churn() throws {
        let january = try month("2026-01"), february = try month("2026-02"), march = try month("2026-03")
        #expect([january.activeAtStart, february.activeAtStart, march.activeAtStart] == [0, 2, 2])
        #expect([january.expirations, february.expirations, march.expirations] == [0, 1, 1])
        #expect([january.reactivations, february.reactivations, march.reactivations] == [0, 0, 0])
        #expect(january.churnRate == nil)
        #expect(february.churnRate == 0.5)
        #expect(march.churnRate == 0.5)
    }

    @Test("churn is never negative: a return undoes only an end of the same month; one from an earlier month is a reactivation, not negative churn")
    func churnAcrossMonths() throws {
        let apple = AppleFacts(bundleID: "com.screentimerewards.app", environment: .production)
        let at = AnalyticsLedger.at
        let individual = AnalyticsLedger.individual
        var seed = 70_000
        func add(_ transactions: JWSTransactionDecodedPayload...) -> [LedgerEvent] {
            transactions.map { transaction in
                seed += 1
                return LedgerEvents.appTransaction(seed, appUserID: "x", transaction)
            }
        }
        // x: paid Jan 5 – Feb 5, back Mar 10 (a month after the end); paid Mar 10 – Apr 10, back Apr 20 (the same month).
        // y: paid every month, so each month starts with active subscribers.
        var events = add(
            apple.subscription(individual, original: "X", id: "X1", purchase: at("2026-01-05T00:00:00Z"), expires: at("2026-02-05T00:00:00Z")),
            apple.subscription(individual, original: "X", id: "X2", purchase: at("2026-03-10T00:00:00Z"), expires: at("2026-04-10T00:00:00Z"),
                               reason: .purchase),
            apple.subscription(individual, original: "X", id: "X3", purchase: at("2026-04-20T00:00:00Z"), expires: at("2026-05-20T00:00:00Z")))
        for (index, month) in ["01", "02", "03", "04", "05"].enumerated() {
            seed += 1
            events.append(LedgerEvents.appTransaction(seed, appUserID: "y", apple.subscription(
                individual, original: "Y", id: "Y\(index)", purchase: at("2026-\(month)-01T00:00:00Z"),
                expires: at("2026-\(index == 4 ? "06" : ["02", "03", "04", "05"][index])-01T00:00:00Z"),
                reason: index == 0 ? .purchase : .renewal)))
        }
        let contributor = AnalyticsContributor(catalog: Self.catalog)
        var cells = contributor.cells(appUserID: "x", events: events.filter { $0.appUserID == "x" })
        cells.add(contributor.cells(appUserID: "y", events: events.filter { $0.appUserID == "y" }))
        let report = AnalyticsReport(cells: cells, catalog: Self.catalog, from: Self.day("2026-01-01"), to: Self.day("2026-04-30"))
        let months = Dictionary(uniqueKeysWithValues: report.months.map { ($0.month, $0) })
        // February: x's end, nobody back: 1 of 2.
        #expect(months["2026-02"]?.expirations == 1 && months["2026-02"]?.churnRate == 0.5)
        // March: x back from February's end; no end in March: no churn (it was −100% when every return was subtracted).
        #expect(months["2026-03"]?.reactivations == 1 && months["2026-03"]?.churnRate == 0)
        // April: x ends Apr 10 and is back Apr 20: the end is undone.
        #expect(months["2026-04"]?.expirations == 1 && months["2026-04"]?.reactivations == 1 && months["2026-04"]?.churnRate == 0)
        #expect(report.months.allSatisfy { ($0.churnRate ?? 0) >= 0 })
    }

    @Test("refunds and their rate, renewals and their rate, billing recoveries")
    func refundsAndRenewals() throws {
        let january = try month("2026-01"), february = try month("2026-02"), march = try month("2026-03")
        #expect([january.refunds, february.refunds, march.refunds] == [0, 1, 0])
        #expect([january.paidTransactions, february.paidTransactions, march.paidTransactions] == [3, 3, 1])
        #expect(january.refundRate == 0)
        #expect(february.refundRate == 0.3333)
        #expect([january.renewalOpportunities, february.renewalOpportunities, march.renewalOpportunities] == [0, 2, 2])
        #expect([january.renewals, february.renewals, march.renewals] == [0, 2, 1])
        #expect(february.renewalRate == 1)
        #expect(march.renewalRate == 0.5)
        #expect([january.billingRecoveries, february.billingRecoveries, march.billingRecoveries] == [0, 1, 0])
    }

    @Test("revenue, refunded amounts and ARPU over the month's average active paid subscriptions")
    func revenue() throws {
        let january = try month("2026-01"), february = try month("2026-02"), march = try month("2026-03")
        #expect(january.revenue == ["USD": 28_970])
        #expect(february.revenue == ["USD": 33_970])
        #expect(february.refunded == ["USD": 12_990])
        #expect(march.revenue == ["USD": 7_990])
        // January: 42 subscription-days over 31 days; February 65 over 28; March 50 over 31.
        #expect(january.arpu == ["USD": 21_383])
        #expect(february.arpu == ["USD": 9_038])
        #expect(march.arpu == ["USD": 4_954])
    }

    @Test("products and entitlements at the end of the range")
    func products() {
        #expect(Self.report.products == [
            ProductRow(
                product: AnalyticsLedger.individual, entitlements: ["individual"], activePaid: 1, activeTrials: 0,
                activeFamilyShared: 0, mrr: ["USD": 7_990])
        ])
        #expect(Self.report.entitlements == [
            EntitlementRow(entitlement: "individual", activePaid: 1, activeTrials: 0, activeFamilyShared: 0, mrr: ["USD": 7_990])
        ])
    }

    @Test("realized LTV by monthly cohort: the family member is no customer, the refund is netted")
    func cohorts() {
        #expect(Self.report.cohorts == [
            CohortRow(cohort: "2026-01", customers: 3, lifetimeValue: ["USD": [9_657, 16_650, 19_313]]),
            CohortRow(cohort: "2026-03", customers: 1, lifetimeValue: [:]),
        ])
    }

    @Test("a cohort not named YYYY-MM (a month 1 to 12) has no row", arguments: ["2026-1", "2026-13", "2026-00", "x026-01", "2026-01-01", "2026/01", "", "-2026-01"])
    func malformedCohorts(_ cohort: String) {
        let day = Self.day("2026-02-10")
        let cells: AnalyticsCells = [
            AnalyticsKey(day: day, metric: .cohortCustomers, cohort: "2026-02"): 1,
            AnalyticsKey(day: day, metric: .cohortRevenue, currency: "USD", cohort: "2026-02"): 5_000,
            AnalyticsKey(day: day, metric: .cohortCustomers, cohort: cohort): 1,
            AnalyticsKey(day: day, metric: .cohortRevenue, currency: "USD", cohort: cohort): 7_000,
        ]
        let report = AnalyticsReport(cells: cells, catalog: Self.catalog, from: Self.day("2026-01-01"), to: Self.day("2026-03-31"))
        #expect(report.cohorts == [CohortRow(cohort: "2026-02", customers: 1, lifetimeValue: ["USD": [5_000, 5_000]])])
    }

    @Test("a report of a later range starts from the balances carried in")
    func laterRange() throws {
        let contributor = AnalyticsContributor(catalog: Self.catalog)
        var cells = AnalyticsCells()
        for user: AppUserID in ["alice", "bob", "carol", "dan", "erin"] {
            cells.add(contributor.cells(appUserID: user, events: AnalyticsLedger.events.filter { $0.appUserID == user }))
        }
        let march = AnalyticsReport(cells: cells, catalog: Self.catalog, from: Self.day("2026-03-01"), to: Self.day("2026-03-31"))
        #expect(march.months == [try month("2026-03")])
        #expect(march.daily.first?.activePaid == 2)
    }

    @Test("several currencies are reported apart, never added together")
    func currencies() {
        let catalog = Self.catalog
        let contributor = AnalyticsContributor(catalog: catalog)
        var euro = AppleFacts(environment: .production).subscription(
            AnalyticsLedger.individual, original: "EU", purchase: AnalyticsLedger.at("2026-01-10T00:00:00Z"),
            expires: AnalyticsLedger.at("2026-02-10T00:00:00Z"), price: 6_990)
        euro.currency = "EUR"
        var cells = AnalyticsCells()
        for user: AppUserID in ["alice", "bob", "carol", "dan", "erin"] {
            cells.add(contributor.cells(appUserID: user, events: AnalyticsLedger.events.filter { $0.appUserID == user }))
        }
        cells.add(contributor.cells(appUserID: "eve", events: [LedgerEvents.appTransaction(1, appUserID: "eve", euro)]))
        let report = AnalyticsReport(cells: cells, catalog: catalog, from: Self.day("2026-01-01"), to: Self.day("2026-03-31"))
        #expect(report.currencies == ["EUR", "USD"])
        #expect(report.daily.first { $0.date == "2026-01-20" }?.mrr == ["USD": 20_980, "EUR": 6_990])
        #expect(report.months.first?.revenue == ["USD": 28_970, "EUR": 6_990])
        #expect(report.cohorts.first?.lifetimeValue["EUR"] == [1_748, 1_748, 1_748])
    }
}
