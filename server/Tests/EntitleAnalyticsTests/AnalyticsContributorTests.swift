import AppStoreModels
import EntitleAnalytics
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("AnalyticsContributor")
struct AnalyticsContributorTests {
    let contributor = AnalyticsContributor(catalog: Fixtures.exampleCatalog("ScreenTimeRewards"))
    static let users: [AppUserID] = ["alice", "bob", "carol", "dan", "erin"]

    func cells(_ events: [LedgerEvent]) -> AnalyticsCells {
        var cells = AnalyticsCells()
        for user in Self.users { cells.add(contributor.cells(appUserID: user, events: events.filter { $0.appUserID == user })) }
        return cells
    }

    @Test("shuffled and duplicated events give the same cells", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func orderIndependent(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let events = AnalyticsLedger.events
        let replayed = (events + events.prefix(Int(seed) * 3)).shuffled(using: &generator)
        #expect(cells(replayed) == cells(events))
    }

    @Test("adding each event's difference to the aggregates equals computing them from all events at once")
    func incremental() {
        var aggregates = AnalyticsCells()
        var seen: [LedgerEvent] = []
        for event in AnalyticsLedger.events {
            let user = event.appUserID ?? ""
            let before = contributor.cells(appUserID: user, events: seen.filter { $0.appUserID == user })
            seen.append(event)
            let after = contributor.cells(appUserID: user, events: seen.filter { $0.appUserID == user })
            aggregates.add(after.difference(from: before))
        }
        #expect(aggregates == cells(AnalyticsLedger.events))
        #expect(!aggregates.isEmpty)
    }

    @Test("balances return to zero once every subscription has ended")
    func balancesClose() {
        let all = cells(AnalyticsLedger.events)
        for metric in AnalyticsMetric.allCases where metric.isBalance && metric != .mrr {
            #expect(all.filter { $0.key.metric == metric }.values.reduce(0, +) == 0, "\(metric)")
        }
        #expect(all.filter { $0.key.metric == .mrr }.values.reduce(0, +) == 0)
    }

    @Test("a refund reversal restores the refunded period")
    func refundReversal() {
        var events = AnalyticsLedger.events.filter { $0.appUserID == "carol" }
        guard case .notification(_, _, let refunded?, _) = events.last?.payload else {
            Issue.record("carol's last event is the refund")
            return
        }
        var reversedTransaction = refunded
        reversedTransaction.signedDate = AnalyticsLedger.at("2026-02-12T00:00:00Z")
        events.append(LedgerEvents.notification(9_999, appUserID: "carol", type: .refundReversed, transaction: reversedTransaction))
        let cells = contributor.cells(appUserID: "carol", events: events)
        #expect(cells.filter { $0.key.metric == .refunds }.isEmpty)
        #expect(cells.filter { $0.key.metric == .refunded }.isEmpty)
        let end = AnalyticsCalendar.day(of: AnalyticsLedger.at("2026-03-01T12:00:00Z"))
        #expect(cells[AnalyticsKey(day: end, metric: .activePaid, product: AnalyticsLedger.family)] == -1)
    }

    @Test("MRR normalises a yearly price to a month", arguments: [("P1Y", 120_000, 10_000), ("P1M", 7_990, 7_990), ("P1W", 1_000, 4_348)])
    func monthlyValue(period: String, price: Int64, monthly: Int64) throws {
        let catalog = Catalog(products: [
            Product(id: "p", kind: .autoRenewable, price: Price(amount: Decimal(price) / 1000, currency: "USD"), period: ISODuration(period))
        ])
        let contributor = AnalyticsContributor(catalog: catalog)
        let start = AnalyticsLedger.at("2026-01-01T00:00:00Z")
        let transaction = AppleFacts(environment: .production).subscription("p", original: "P", purchase: start, expires: start.addingTimeInterval(86_400 * 30), price: price)
        let cells = contributor.cells(appUserID: "u", events: [LedgerEvents.appTransaction(1, appUserID: "u", transaction)])
        #expect(cells[AnalyticsKey(day: AnalyticsCalendar.day(of: start), metric: .mrr, product: "p", currency: "USD")] == monthly)
    }
}
