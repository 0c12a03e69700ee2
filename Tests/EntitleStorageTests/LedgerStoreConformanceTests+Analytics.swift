import AppStoreModels
import EntitleAnalytics
import EntitleCore
@testable import EntitleStorage
import EntitleTestSupport
import Foundation
import Testing

extension LedgerStoreConformanceTests {
    static let analyticsCatalog = Fixtures.exampleCatalog("ScreenTimeRewards")

    static func expectedCells(_ events: [LedgerEvent]) -> AnalyticsCells {
        let contributor = AnalyticsContributor(catalog: analyticsCatalog)
        var cells = AnalyticsCells()
        for user in Set(events.compactMap(\.appUserID)) {
            cells.add(contributor.cells(appUserID: user, events: events.filter { $0.appUserID == user }))
        }
        return cells
    }

    @Test("analytics refreshed between shuffled, duplicated deliveries equal a full recompute and the pure computation", arguments: StorageEngine.allCases)
    func analyticsIncremental(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let contributor = AnalyticsContributor(catalog: Self.analyticsCatalog)
            let cells: @Sendable (String, [LedgerEvent]) -> AnalyticsCells = { contributor.cells(appUserID: $0, events: $1) }
            let events = AnalyticsLedger.events
            var generator = SeededGenerator(seed: 11)
            let delivered = (events + events.prefix(8)).shuffled(using: &generator)
            var refreshed = 0
            for (index, event) in delivered.enumerated() {
                _ = try await store.append(event)
                if index % 5 == 4 { refreshed += try await store.analyticsStore().refreshAnalytics(batchSize: 2, cells: cells) }
            }
            #expect(refreshed > 0)
            #expect(try await store.analyticsStore().pendingAnalytics() > 0)
            _ = try await store.analyticsStore().refreshAnalytics(batchSize: 2, cells: cells)
            #expect(try await store.analyticsStore().pendingAnalytics() == 0)

            let incremental = try await store.analyticsStore().analyticsCells(through: nil)
            #expect(incremental == Self.expectedCells(events))
            #expect(try await store.analyticsStore().recomputeAnalytics(batchSize: 3, cells: cells) == 5)
            #expect(try await store.analyticsStore().analyticsCells(through: nil) == incremental)
            #expect(try await store.analyticsStore().pendingAnalytics() == 0)

            let cutoff = AnalyticsCalendar.day(of: AnalyticsLedger.at("2026-01-31T00:00:00Z"))
            #expect(try await store.analyticsStore().analyticsCells(through: cutoff) == incremental.filter { $0.key.day <= cutoff })
        }
    }

    @Test("a held notification counts in analytics once its purchase is linked, and a restore moves the purchase's cells", arguments: StorageEngine.allCases)
    func analyticsHeldAndRestored(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let contributor = AnalyticsContributor(catalog: Self.analyticsCatalog)
            let cells: @Sendable (String, [LedgerEvent]) -> AnalyticsCells = { contributor.cells(appUserID: $0, events: $1) }
            let start = AnalyticsLedger.at("2026-01-05T12:00:00Z")
            let transaction = Self.apple.subscription(
                AnalyticsLedger.individual, original: "H", id: "H1", purchase: start, expires: ISODuration(months: 1).added(to: start))
            _ = try await store.append(LedgerEvents.notification(1, appUserID: nil, type: .subscribed, subtype: .initialBuy, transaction: transaction))
            _ = try await store.analyticsStore().refreshAnalytics(batchSize: 10, cells: cells)
            #expect(try await store.analyticsStore().analyticsCells(through: nil).isEmpty)

            _ = try await store.append(LedgerEvents.appTransaction(2, appUserID: "first", transaction))
            _ = try await store.analyticsStore().refreshAnalytics(batchSize: 10, cells: cells)
            let day = AnalyticsCalendar.day(of: start)
            #expect(try await store.analyticsStore().analyticsCells(through: nil)[AnalyticsKey(day: day, metric: .revenue, product: AnalyticsLedger.individual, currency: "USD")] == 7_990)

            #expect(try await store.transfer(originalTransactionID: "H", to: "second", at: start.addingTimeInterval(86_400)) == "first")
            _ = try await store.analyticsStore().refreshAnalytics(batchSize: 10, cells: cells)
            let moved = try await store.analyticsStore().analyticsCells(through: nil)
            #expect(moved[AnalyticsKey(day: day, metric: .activePaid, product: AnalyticsLedger.individual)] == 1)
            #expect(moved[AnalyticsKey(day: day, metric: .cohortCustomers, cohort: "2026-01")] == 1)
            #expect(try await store.analyticsStore().recomputeAnalytics(batchSize: 10, cells: cells) == 2)
            #expect(try await store.analyticsStore().analyticsCells(through: nil) == moved)
        }
    }

    /// 24 subscribers, each a month of Individual or Family from Jan 1 + its index in days, renewed four
    /// times; and refunds of every third one's last renewal, on its purchase day.
    static func manySubscribers() -> (events: [LedgerEvent], refunds: [LedgerEvent]) {
        var events: [LedgerEvent] = []
        var refunds: [LedgerEvent] = []
        var seed = 70_000
        for index in 0..<24 {
            let (user, original) = ("many-\(index)", "M\(index)")
            let product = index % 2 == 0 ? AnalyticsLedger.individual : AnalyticsLedger.family
            var purchase = AnalyticsLedger.at("2026-01-01T12:00:00Z").addingTimeInterval(Double(index) * 86_400)
            var last: JWSTransactionDecodedPayload?
            for month in 0..<5 {
                let expires = ISODuration(months: 1).added(to: purchase)
                let transaction = apple.subscription(
                    product, original: original, id: "\(original)-\(month)", purchase: purchase, expires: expires,
                    price: index % 2 == 0 ? 7_990 : 12_990, groupID: "20776E67")
                seed += 1
                events.append(LedgerEvents.notification(
                    seed, appUserID: user, type: month == 0 ? .subscribed : .didRenew, subtype: month == 0 ? .initialBuy : nil,
                    transaction: transaction))
                (purchase, last) = (expires, transaction)
            }
            if index % 3 == 0, var refunded = last, let bought = refunded.purchaseDate {
                refunded.revocationDate = bought.addingTimeInterval(6 * 3_600)
                refunded.revocationReason = .other
                refunded.signedDate = refunded.revocationDate
                seed += 1
                refunds.append(LedgerEvents.notification(seed, appUserID: user, type: .refund, transaction: refunded))
            }
        }
        return (events, refunds)
    }

    @Test(
        "aggregates of more cells than one statement writes, refreshed, then refunded down to zero in places, then recomputed, equal the pure computation",
        arguments: StorageEngine.allCases)
    func analyticsManyCells(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let contributor = AnalyticsContributor(catalog: Self.analyticsCatalog)
            let cells: @Sendable (String, [LedgerEvent]) -> AnalyticsCells = { contributor.cells(appUserID: $0, events: $1) }
            let (events, refunds) = Self.manySubscribers()
            for event in events { _ = try await store.append(event) }
            #expect(try await store.analyticsStore().refreshAnalytics(batchSize: 1_000, cells: cells) == 24)
            let bought = try await store.analyticsStore().analyticsCells(through: nil)
            #expect(bought == Self.expectedCells(events))
            // One refresh writes several full statements and a remainder that is no power of two.
            let remainder = bought.count % SQLAnalyticsStore.aggregateRows
            #expect(bought.count > 2 * SQLAnalyticsStore.aggregateRows)
            #expect(remainder & (remainder - 1) != 0, "\(bought.count) cells")

            for event in refunds { _ = try await store.append(event) }
            #expect(try await store.analyticsStore().refreshAnalytics(batchSize: 1_000, cells: cells) == 8)
            let refunded = try await store.analyticsStore().analyticsCells(through: nil)
            #expect(refunded == Self.expectedCells(events + refunds))
            // A refund on the purchase day nets its cohort's revenue that day to zero: those rows are gone.
            let gone = bought.keys.filter { refunded[$0] == nil }
            #expect(gone.count >= 8)
            #expect(gone.contains { $0.metric == .cohortRevenue })

            #expect(try await store.analyticsStore().recomputeAnalytics(batchSize: 7, cells: cells) == 24)
            #expect(try await store.analyticsStore().analyticsCells(through: nil) == refunded)
        }
    }
}
