import AppStoreModels
import EntitleAnalytics
import EntitleCore
import EntitleTestSupport
import EntitleWire
import Foundation
import Testing

extension AnalyticsContributorTests {
    /// PantryPal's annual plan (49.99 a year up front) bought on 15 January 2026 billed monthly under a
    /// 12-month commitment: instalments of 4.17 (49.99 ÷ 12 = 4.1658, rounded up to the cent), one
    /// transaction a month, the commitment ending 15 January 2027. The customer turns auto-renew off in
    /// March; the instalments are owed all the same. Six are paid by the end of June.
    ///
    /// By hand, January to June:
    /// - revenue 6 × 4,170 = 25,020 milliunits (25.02 USD), 6 paid transactions, 1 new paid subscription;
    /// - MRR 4,170 (4.17 USD) on every day from 15 January: an instalment is a month's revenue, not a
    ///   twelfth of one (which would be 4,170 ÷ 12 = 347);
    /// - no renewal opportunity and no renewal: each instalment is owed, not chosen; the commitment's
    ///   one opportunity is on 15 January 2027 (counting each instalment would give 5 opportunities and
    ///   5 renewals, a 100% renewal rate the customer never chose);
    /// - no expiration, and one active paid subscription at the end of June.
    @Test("a yearly plan billed monthly under a commitment: MRR is the instalment, and instalments are not renewals")
    func commitmentInstalments() throws {
        let apple = AppleFacts(bundleID: "com.pantrypal.app", environment: .production)
        let catalog = Fixtures.exampleCatalog("PantryPal")
        let annual = "com.pantrypal.premium.annual"
        let start = AnalyticsLedger.at("2026-01-15T12:00:00Z")
        let commitmentEnd = ISODuration(years: 1).added(to: start)
        let events = (1...6).map { period in
            let purchased = ISODuration(months: period - 1).added(to: start)
            var transaction = apple.subscription(
                annual, original: "C", id: "C\(period)", purchase: purchased, expires: ISODuration(months: period).added(to: start), price: 4_170,
                reason: period == 1 ? .purchase : .renewal, groupID: "4B6D8E20")
            transaction.billingPlanType = .monthly
            transaction.commitmentInfo = TransactionCommitmentInfo(
                billingPeriodNumber: Int32(period), commitmentExpiresDate: commitmentEnd, commitmentPrice: 50_040, totalBillingPeriods: 12)
            var renewal = apple.renewal(original: "C", product: annual, autoRenew: .on, signed: purchased)
            renewal.commitmentInfo = RenewalCommitmentInfo(commitmentAutoRenewStatus: period >= 3 ? .off : .on, commitmentRenewalDate: commitmentEnd)
            return LedgerEvents.notification(period, appUserID: "cook", type: period == 1 ? .subscribed : .didRenew, transaction: transaction, renewalInfo: renewal)
        }
        let cells = AnalyticsContributor(catalog: catalog).cells(appUserID: "cook", events: events)
        let from = AnalyticsCalendar.day(of: start), to = AnalyticsCalendar.day(of: AnalyticsLedger.at("2026-06-30T12:00:00Z"))
        let report = AnalyticsReport(cells: cells, catalog: catalog, from: from, to: to)
        let months = report.months.filter { $0.month <= "2026-06" }
        #expect(months.count == 6)
        #expect(months.reduce(0) { $0 + ($1.revenue["USD"] ?? 0) } == 25_020)
        #expect(months.reduce(0) { $0 + $1.paidTransactions } == 6 && months.reduce(0) { $0 + $1.newPaid } == 1)
        #expect(months.allSatisfy { $0.mrrAtEnd["USD"] == 4_170 })
        #expect(months.reduce(0) { $0 + $1.renewalOpportunities } == 0 && months.reduce(0) { $0 + $1.renewals } == 0)
        #expect(months.reduce(0) { $0 + $1.expirations } == 0)
        #expect(report.daily.last?.activePaid == 1 && report.daily.last?.mrr["USD"] == 4_170)
    }
}
