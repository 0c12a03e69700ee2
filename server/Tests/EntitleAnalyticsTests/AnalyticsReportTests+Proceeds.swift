import AppStoreModels
import EntitleAnalytics
import EntitleCore
import EntitleTestSupport
import EntitleWire
import Foundation
import Testing

extension AnalyticsReportTests {
    @Test("proceeds: 70% of each sale in a chain's first paid year, the refund's share taken back (Carol's month nets to zero)")
    func proceeds() throws {
        // January: Alice 7.99, Bob 7.99 then 12.99; February: Alice 7.99, Bob 12.99, Carol 12.99 refunded; March: Alice 7.99.
        #expect(try month("2026-01").proceeds == ["USD": 5_593 + 5_593 + 9_093])
        #expect(try month("2026-02").proceeds == ["USD": 5_593 + 9_093])
        #expect(try month("2026-03").proceeds == ["USD": 5_593])
    }

    @Test("proceeds rise to 85% after a year of paid service, and are 85% throughout in the Small Business Program")
    func proceedsAfterAYear() {
        let apple = AppleFacts(bundleID: "com.screentimerewards.app", environment: .production)
        var events: [LedgerEvent] = []
        for month in 0..<14 {
            let start = ReferenceTime.day(Double(month) * 30), end = ReferenceTime.day(Double(month + 1) * 30)
            events.append(LedgerEvents.appTransaction(month, appUserID: "loyal", apple.subscription(
                AnalyticsLedger.individual, original: "L", id: "L\(month)", purchase: start, expires: end, originalPurchase: ReferenceTime.day(0),
                reason: month == 0 ? .purchase : .renewal, groupID: "20776E67")))
        }
        func proceeds(_ catalog: Catalog) -> [Int64] {
            let cells = AnalyticsContributor(catalog: catalog).cells(appUserID: "loyal", events: events)
            return (0..<14).map { cells[AnalyticsKey(day: AnalyticsCalendar.day(of: ReferenceTime.day(Double($0) * 30)), metric: .proceeds,
                product: AnalyticsLedger.individual, currency: "USD")] ?? 0 }
        }
        // Thirteen 30-day periods make 390 days: the 14th sale (after 390 days of paid service) is at 85%; the 13th (after 360) isn't.
        #expect(proceeds(Self.catalog) == Array(repeating: 5_593, count: 13) + [6_791])
        var small = Self.catalog
        small.smallBusinessProgram = true
        #expect(proceeds(small) == Array(repeating: 6_791, count: 14))
    }

    @Test("retention by first paid month: January's two customers keep paid access through February, Bob's ends in March; Carol's refund ends hers at once")
    func retention() {
        #expect(Self.report.retention == [
            RetentionRow(cohort: "2026-01", customers: 2, active: [2, 2, 1]),
            RetentionRow(cohort: "2026-02", customers: 1, active: [0, 0]),
        ])
        #expect(Self.report.retention.first?.retention == [1, 1, 0.5])
    }

    @Test("app-managed trial conversions by the product bought and how many days into the trial; churn by billing period")
    func conversionByProduct() throws {
        let january = try month("2026-01")
        // Alice (trial from Jan 1) bought Individual 9 days in, through a StoreKit trial; Carol (from Jan 25) Family 7 days in.
        #expect(january.appTrialConversionsByProduct == [AnalyticsLedger.individual: 1, AnalyticsLedger.family: 1])
        #expect(january.appTrialMeanDaysToConvert == 8)
        // Every product is monthly: February's refund and March's expiry, each one of the two active at the month's start.
        #expect(try month("2026-02").churnRateByPeriod == ["P1M": 0.5])
        #expect(try month("2026-03").churnRateByPeriod == ["P1M": 0.5])
    }

    @Test("the report in one currency: each month's amounts at the operator's rates, with the rates' date; a currency without a rate is named")
    func reportingCurrency() throws {
        let rates = try ExchangeRates(json: Data(#"{"currency": "EUR", "date": "2026-03-31", "rates": {"USD": 0.9}}"#.utf8))
        let reporting = rates.reporting(Self.report)
        #expect(reporting.currency == "EUR" && reporting.ratesDate == "2026-03-31" && reporting.unconverted.isEmpty)
        #expect(reporting.months.map(\.revenue) == [26_073, 30_573, 7_191])
        #expect(reporting.months.map(\.proceeds) == [18_251, 13_217, 5_034])
        let partial = ExchangeRates(currency: "GBP", date: "2026-03-31", rates: ["EUR": 0.85]).reporting(Self.report)
        #expect(partial.unconverted == ["USD"] && partial.months.allSatisfy { $0.revenue == 0 })
    }

    @Test("a rates file that isn't rates is refused with its problem", arguments: [
        "not json", #"{"currency": "usd", "date": "2026-03-31", "rates": {}}"#, #"{"currency": "USD", "date": "2026-02-30", "rates": {}}"#,
        #"{"currency": "USD", "date": "31/03/2026", "rates": {}}"#, #"{"currency": "USD", "date": "2026-03-31", "rates": {"EUR": 0}}"#,
        #"{"currency": "USD", "date": "2026-03-31", "rates": {"EUR": -1.2}}"#, #"{"currency": "USD", "date": "2026-03-31", "rates": {"euro": 1.1}}"#,
        #"{"currency": "USD", "date": "0001-01-01", "rates": {}}"#, #"{"currency": "USD", "rates": {}}"#,
    ])
    func invalidRates(_ text: String) {
        #expect(throws: ExchangeRates.Invalid.self) { try ExchangeRates(json: Data(text.utf8)) }
    }

    @Test("segments by storefront: the range's new paid subscriptions, revenue and proceeds where each was bought")
    func storefronts() {
        // Every purchase of the ledger was made in the USA storefront; Erin's family share is no sale.
        #expect(Self.report.storefronts == [
            StorefrontRow(storefront: "USA", newPaid: 3, revenue: ["USD": 28_970 + 33_970 + 7_990], proceeds: ["USD": 20_279 + 14_686 + 5_593]),
        ])
        let march = AnalyticsReport(cells: Self.cells, catalog: Self.catalog, from: Self.day("2026-03-01"), to: Self.day("2026-03-31"))
        #expect(march.storefronts == [StorefrontRow(storefront: "USA", newPaid: 0, revenue: ["USD": 7_990], proceeds: ["USD": 5_593])])
    }
}
