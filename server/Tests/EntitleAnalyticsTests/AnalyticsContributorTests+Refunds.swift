import AppStoreModels
import EntitleAnalytics
import EntitleCore
import EntitleTestSupport
import EntitleWire
import Foundation
import Testing

extension AnalyticsContributorTests {
    /// A Family month (12.99) refunded on its 19th day: Apple refunds the time left, 40.000% of it
    /// (`revocationPercentage` 40000). By hand: refunded 12,990 × 40,000 ÷ 100,000 = 5,196 milliunits
    /// (5.196 USD), so the month's net revenue is 12,990 − 5,196 = 7,794 (7.794 USD); the refund is
    /// one refund either way, and access ends at the revocation as for a full refund.
    @Test("a prorated refund counts the share Apple gave back, not the whole price; a full refund the whole", arguments: [
        (RevocationType.refundProrated, Int32?.some(40_000), Int64(5_196)),
        (RevocationType.refundFull, Int32?.none, Int64(12_990)),
        (RevocationType.refundProrated, Int32?.some(100_000), Int64(12_990)),
        (RevocationType.refundProrated, Int32?.some(0), Int64(0)),
    ])
    func proratedRefund(type: RevocationType, share: Int32?, refunded: Int64) throws {
        let apple = AppleFacts(bundleID: "com.screentimerewards.app", environment: .production)
        let catalog = Fixtures.exampleCatalog("ScreenTimeRewards")
        let start = AnalyticsLedger.at("2026-02-01T12:00:00Z"), revokedAt = AnalyticsLedger.at("2026-02-20T12:00:00Z")
        let purchase = apple.subscription(
            AnalyticsLedger.family, original: "R", id: "R1", purchase: start, expires: AnalyticsLedger.at("2026-03-01T12:00:00Z"), price: 12_990,
            groupID: "20776E67")
        var revoked = purchase
        revoked.revocationDate = revokedAt
        revoked.revocationReason = .other
        revoked.revocationType = type
        revoked.revocationPercentage = share
        revoked.signedDate = revokedAt
        let events = [LedgerEvents.appTransaction(1, appUserID: "parent", purchase), LedgerEvents.notification(2, appUserID: "parent", type: .refund, transaction: revoked)]
        let cells = AnalyticsContributor(catalog: catalog).cells(appUserID: "parent", events: events)
        let day = AnalyticsCalendar.day(of: revokedAt)
        #expect(cells[AnalyticsKey(day: day, metric: .refunds, product: AnalyticsLedger.family)] == 1)
        #expect(cells[AnalyticsKey(day: day, metric: .refunded, product: AnalyticsLedger.family, currency: "USD")] == (refunded == 0 ? nil : refunded))
        let report = AnalyticsReport(cells: cells, catalog: catalog, from: AnalyticsCalendar.day(of: start), to: day)
        let february = try #require(report.months.first { $0.month == "2026-02" })
        #expect(february.revenue["USD"] == 12_990 && (february.refunded["USD"] ?? 0) == refunded)
        // Paid access ended at the revocation: no active paid subscription the day after.
        #expect(report.daily.last?.activePaid == 0)
    }
}
