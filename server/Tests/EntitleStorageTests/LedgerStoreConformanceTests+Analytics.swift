import AppStoreModels
import EntitleAnalytics
import EntitleCore
@testable import EntitleStorage
import EntitleTestSupport
import Foundation
import Testing

extension LedgerStoreConformanceTests {
    static let analyticsCatalog = Fixtures.exampleCatalog("ScreenTimeRewards")

    static let analyticsContributor = AnalyticsContributor(catalog: analyticsCatalog)
    /// A subscriber's cells, as the server computes them for the stores.
    static let analyticsCells: @Sendable (AppUserID, [LedgerEvent]) -> AnalyticsCells = { analyticsContributor.cells(appUserID: $0, events: $1) }

    static func expectedCells(_ events: [LedgerEvent]) -> AnalyticsCells {
        var cells = AnalyticsCells()
        for user in Set(events.compactMap(\.appUserID)) {
            cells.add(analyticsContributor.cells(appUserID: user, events: events.filter { $0.appUserID == user }))
        }
        return cells
    }

    /// `store` and another server on the same database (the same engine, its own kept projections and
    /// aggregates), with the first half of the analytics ledger appended and refreshed through `store`;
    /// the second half is returned unappended.
    static func twoInstancesWithEarlyEvents(
        _ store: any LedgerStore
    ) async throws -> (mine: SQLLedgerStore, other: SQLLedgerStore, otherAnalytics: SQLAnalyticsStore, early: [LedgerEvent], late: [LedgerEvent]) {
        let mine = try #require(store as? SQLLedgerStore)
        let other = SQLLedgerStore(engine: mine.engine, writePath: mine.writePath, app: mine.app, projections: ProjectionCache())
        let otherAnalytics = SQLAnalyticsStore(engine: mine.engine, app: mine.app, aggregates: AggregateCache())
        let events = AnalyticsLedger.events
        let (early, late) = (Array(events.prefix(events.count / 2)), Array(events.suffix(from: events.count / 2)))
        for event in early { _ = try await mine.append(event) }
        _ = try await mine.analyticsStore().refreshAnalytics(batchSize: 100, cells: analyticsCells)
        return (mine, other, otherAnalytics, early, late)
    }

    @Test("analytics refreshed between shuffled, duplicated deliveries equal a full recompute and the pure computation", arguments: StorageEngine.allCases)
    func analyticsIncremental(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let cells = Self.analyticsCells
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

    @Test(
        "a held notification counts in analytics once its purchase is linked, and a restore moves the purchase's cells (a tester's, kept apart)",
        arguments: StorageEngine.allCases)
    func analyticsHeldAndRestored(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let cells = Self.analyticsCells
            let start = AnalyticsLedger.at("2026-01-05T12:00:00Z")
            let transaction = Self.apple.subscription(
                AnalyticsLedger.individual, original: "H", id: "H1", purchase: start, expires: ISODuration(months: 1).added(to: start))
            _ = try await store.append(LedgerEvents.notification(1, appUserID: nil, type: .subscribed, subtype: .initialBuy, transaction: transaction))
            _ = try await store.analyticsStore().refreshAnalytics(batchSize: 10, cells: cells)
            #expect(try await store.analyticsStore().analyticsCells(through: nil).isEmpty)

            _ = try await store.append(LedgerEvents.appTransaction(2, appUserID: "first", transaction))
            _ = try await store.analyticsStore().refreshAnalytics(batchSize: 10, cells: cells)
            let day = AnalyticsCalendar.day(of: start)
            #expect(try await store.analyticsStore().analyticsCells(through: nil)[AnalyticsKey(day: day, metric: .revenue, product: AnalyticsLedger.individual, currency: "USD", environment: .sandbox)] == 7_990)

            #expect(try await store.transfer(originalTransactionID: "H", to: "second", at: start.addingTimeInterval(86_400)) == "first")
            _ = try await store.analyticsStore().refreshAnalytics(batchSize: 10, cells: cells)
            let moved = try await store.analyticsStore().analyticsCells(through: nil)
            #expect(moved[AnalyticsKey(day: day, metric: .activePaid, product: AnalyticsLedger.individual, environment: .sandbox)] == 1)
            #expect(moved[AnalyticsKey(day: day, metric: .cohortCustomers, cohort: "2026-01", environment: .sandbox)] == 1)
            #expect(moved.filter { $0.key.environment == .production }.map(\.key.metric) == [])
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
            let (user, original) = (AppUserID("many-\(index)"), "M\(index)")
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
            let cells = Self.analyticsCells
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

    /// A month of Individual bought on `day` (an instant of 2026) by `user`.
    static func monthBought(_ seed: Int, _ user: AppUserID, _ original: String, _ day: String) -> LedgerEvent {
        let purchase = AnalyticsLedger.at(day)
        return LedgerEvents.notification(seed, appUserID: user, type: .subscribed, subtype: .initialBuy, transaction: apple.subscription(
            AnalyticsLedger.individual, original: original, id: "\(original)1", purchase: purchase,
            expires: ISODuration(months: 1).added(to: purchase), groupID: "20776E67"))
    }

    @Test(
        "between a recompute's batches, appends and refreshes count only the subscribers it has reached; once done, the aggregates equal the pure computation",
        arguments: StorageEngine.allCases)
    func analyticsRecomputeInterleaved(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let cells = Self.analyticsCells
            let analytics = store.analyticsStore()
            let events = AnalyticsLedger.events
            // alice's and dan's last events arrive while the recompute runs (alice is in its first batch, dan isn't).
            let late = [events.lastIndex { $0.appUserID == "alice" }, events.lastIndex { $0.appUserID == "dan" }].compactMap { $0 }
            #expect(late.count == 2)
            let early = events.indices.filter { !late.contains($0) }.map { events[$0] }
            for event in early { _ = try await store.append(event) }
            _ = try await analytics.refreshAnalytics(batchSize: 100, cells: cells)
            #expect(try await analytics.analyticsCells(through: nil) == Self.expectedCells(early))

            try await analytics.startRecompute()
            #expect(try await analytics.analyticsCells(through: nil).isEmpty)
            let first = try await analytics.recomputeBatch(batchSize: 2, cells: cells)
            #expect(first.subscribers == 2 && !first.finished)
            // aaron sorts before the batch's last subscriber (bob), zoe after it.
            let arrivals = late.map { events[$0] } + [
                Self.monthBought(81_001, "aaron", "AA", "2026-02-03T12:00:00Z"), Self.monthBought(81_002, "zoe", "ZZ", "2026-02-04T12:00:00Z"),
            ]
            for event in arrivals { _ = try await store.append(event) }
            _ = try await analytics.refreshAnalytics(batchSize: 100, cells: cells)
            let all = events + arrivals.suffix(2)
            let reached: Set<AppUserID?> = ["aaron", "alice", "bob"]
            #expect(try await analytics.analyticsCells(through: nil) == Self.expectedCells(all.filter { reached.contains($0.appUserID) }))

            var batches = 1
            while !(try await analytics.recomputeBatch(batchSize: 2, cells: cells)).finished { batches += 1 }
            #expect(batches == 3)
            #expect(try await analytics.analyticsCells(through: nil) == Self.expectedCells(all))
            #expect(try await analytics.pendingAnalytics() == 0)
            // Nothing is left under way: an event for the last subscriber counts at the next refresh.
            let more = Self.monthBought(81_003, "zoe", "ZY", "2026-03-04T12:00:00Z")
            _ = try await store.append(more)
            _ = try await analytics.refreshAnalytics(batchSize: 100, cells: cells)
            #expect(try await analytics.analyticsCells(through: nil) == Self.expectedCells(all + [more]))
        }
    }

    @Test(
        "a recompute interrupted between batches is finished by finishRecompute, and a cancelled task leaves it under way",
        arguments: StorageEngine.allCases)
    func analyticsRecomputeFinished(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let cells = Self.analyticsCells
            let analytics = store.analyticsStore()
            let events = AnalyticsLedger.events
            for event in events { _ = try await store.append(event) }
            #expect(try await !analytics.recomputeUnderWay())
            #expect(try await analytics.finishRecompute(batchSize: 2, cells: cells) == 0)
            _ = try await analytics.refreshAnalytics(batchSize: 100, cells: cells)

            try await analytics.startRecompute()
            #expect(try await analytics.recomputeBatch(batchSize: 2, cells: cells).subscribers == 2)
            #expect(try await analytics.recomputeUnderWay())
            let partial = try await analytics.analyticsCells(through: nil)
            #expect(partial != Self.expectedCells(events))
            // Cancelled before its first batch: nothing recomputed, the progress kept.
            let cancelled = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await analytics.finishRecompute(batchSize: 2, cells: cells)
            }
            #expect(try await cancelled.value == 0)
            #expect(try await analytics.recomputeUnderWay())
            #expect(try await analytics.analyticsCells(through: nil) == partial)

            #expect(try await analytics.finishRecompute(batchSize: 2, cells: cells) == 3)
            #expect(try await !analytics.recomputeUnderWay())
            #expect(try await analytics.analyticsCells(through: nil) == Self.expectedCells(events))
            #expect(try await analytics.finishRecompute(batchSize: 2, cells: cells) == 0)
        }
    }

    @Test("a refresh in a cancelled task stops before its next batch: the events stay for the next refresh", arguments: StorageEngine.allCases)
    func analyticsRefreshCancelled(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let cells = Self.analyticsCells
            let analytics = store.analyticsStore()
            let events = AnalyticsLedger.events
            for event in events { _ = try await store.append(event) }
            let pending = try await analytics.pendingAnalytics()
            #expect(pending > 2)
            let cancelled = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await analytics.refreshAnalytics(batchSize: 2, cells: cells)
            }
            #expect(try await cancelled.value == 0)
            #expect(try await analytics.pendingAnalytics() == pending)
            #expect(try await analytics.analyticsCells(through: nil) == Self.expectedCells([]))
            _ = try await analytics.refreshAnalytics(batchSize: 2, cells: cells)
            #expect(try await analytics.pendingAnalytics() == 0)
            #expect(try await analytics.analyticsCells(through: nil) == Self.expectedCells(events))
        }
    }

    @Test(
        "a recompute drops cells stored for ids no subscriber has, and one started while another runs takes over from the first subscriber",
        arguments: StorageEngine.databases)
    func analyticsRecomputeTakeover(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let cells = Self.analyticsCells
            let ledger = try #require(store as? SQLLedgerStore)
            let analytics = try #require(store.analyticsStore() as? SQLAnalyticsStore)
            let events = AnalyticsLedger.events
            for event in events { _ = try await store.append(event) }
            _ = try await analytics.refreshAnalytics(batchSize: 100, cells: cells)
            // Cells of ids without a subscriber, one inside the first batch's range and one past the last.
            let app = ledger.app
            let stray = StoredAnalyticsCells.encode([AnalyticsKey(day: 20_500, metric: .revenue, product: AnalyticsLedger.individual, currency: "USD"): 100])
            try await ledger.engine.transaction { session throws(StorageError) in
                for id in ["aardvark", "ghost"] {
                    _ = try await session.execute(
                        "INSERT INTO analytics_contributions (app_id, app_user_id, cells) VALUES (?, ?, ?)", [.id(app), .text(id), .text(stray)])
                }
            }
            let idle = try await analytics.recomputeBatch(batchSize: 2, cells: cells)
            #expect(idle.subscribers == 0 && idle.finished)

            try await analytics.startRecompute()
            #expect(try await analytics.recomputeBatch(batchSize: 2, cells: cells).subscribers == 2)
            try await analytics.startRecompute()
            var recomputed = 0
            while true {
                let batch = try await analytics.recomputeBatch(batchSize: 2, cells: cells)
                recomputed += batch.subscribers
                if batch.finished { break }
            }
            #expect(recomputed == 5)
            #expect(try await analytics.analyticsCells(through: nil) == Self.expectedCells(events))
            let left = try await ledger.engine.read { session throws(StorageError) in
                (
                    try await session.execute("SELECT app_user_id FROM analytics_contributions WHERE app_id = ? ORDER BY app_user_id", [.id(app)])
                        .map { row throws(StorageError) in try row.text("app_user_id") },
                    try await session.execute("SELECT after FROM analytics_recompute", []).count
                )
            }
            #expect(left.0 == ["alice", "bob", "carol", "dan", "erin"])
            #expect(left.1 == 0)
        }
    }

    @Test(
        "aggregates kept in memory follow every write, this instance's and another's: rows changed behind their revision are not read, a new revision is",
        arguments: StorageEngine.databases)
    func analyticsKeptAggregates(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let cells = Self.analyticsCells
            let (mine, other, otherAnalytics, early, late) = try await Self.twoInstancesWithEarlyEvents(store)
            let events = AnalyticsLedger.events
            #expect(try await mine.analyticsStore().analyticsCells(through: nil) == Self.expectedCells(early))
            for event in late { _ = try await mine.append(event) }
            _ = try await mine.analyticsStore().refreshAnalytics(batchSize: 100, cells: cells)

            // Every row changed without a new revision: this instance reads what its refresh left, the
            // other (nothing kept) the rows.
            let app = mine.app
            try await mine.engine.transaction { session throws(StorageError) in
                _ = try await session.execute("UPDATE analytics_daily SET value = value * 3 WHERE app_id = ?", [.id(app)])
            }
            let expected = Self.expectedCells(events)
            #expect(try await mine.analyticsStore().analyticsCells(through: nil) == expected)
            let cutoff = AnalyticsCalendar.day(of: AnalyticsLedger.at("2026-01-31T00:00:00Z"))
            #expect(try await mine.analyticsStore().analyticsCells(through: cutoff) == expected.filter { $0.key.day <= cutoff })
            let rows = try await otherAnalytics.analyticsCells(through: nil)
            #expect(rows != expected)
            #expect(rows.count == expected.count)

            // The other instance refreshes: a new revision, so this one reads the rows it left.
            let more = Self.monthBought(81_010, "zoe", "ZX", "2026-03-04T12:00:00Z")
            _ = try await other.append(more)
            _ = try await otherAnalytics.refreshAnalytics(batchSize: 100, cells: cells)
            let refreshed = try await otherAnalytics.analyticsCells(through: nil)
            #expect(refreshed != expected && refreshed != rows)
            #expect(try await mine.analyticsStore().analyticsCells(through: nil) == refreshed)
            // A recompute there: both read the pure computation.
            _ = try await otherAnalytics.recomputeAnalytics(batchSize: 2, cells: cells)
            #expect(try await mine.analyticsStore().analyticsCells(through: nil) == Self.expectedCells(events + [more]))
            #expect(try await otherAnalytics.analyticsCells(through: nil) == Self.expectedCells(events + [more]))
        }
    }

    @Test("rows an app adopts from a ledger older than apps are read into its aggregates, not the copy kept before", arguments: StorageEngine.databases)
    func analyticsAdoptedRows(engine: StorageEngine) async throws {
        try await engine.withStore { root in
            let one = try #require(root.forApp("com.example.one") as? SQLLedgerStore)
            let events = AnalyticsLedger.events
            for event in events { _ = try await one.append(event) }
            _ = try await one.analyticsStore().refreshAnalytics(batchSize: 100, cells: Self.analyticsCells)
            let before = try await one.analyticsStore().analyticsCells(through: nil)
            #expect(before == Self.expectedCells(events))
            // A subscriber and an aggregate row as a ledger from before apps holds them (no app).
            try await one.engine.transaction { session throws(StorageError) in
                _ = try await session.execute(
                    "INSERT INTO subscribers (app_id, app_user_id, projection, event_count, updated_at) VALUES ('', 'legacy', '{}', 0, 0)", [])
                _ = try await session.execute(
                    "INSERT INTO analytics_daily (app_id, day, metric, product, currency, cohort, value) VALUES ('', 19000, 'revenue', 'legacy', 'USD', '', 500)",
                    [])
            }
            try await one.adoptUnassignedRows()
            let after = try await one.analyticsStore().analyticsCells(through: nil)
            #expect(after[AnalyticsKey(day: 19_000, metric: .revenue, product: "legacy", currency: "USD")] == 500)
            #expect(after.count == before.count + 1)
        }
    }

    @Test(
        "a refresh and a recompute over several chunks of subscribers equal the pure computation; a chunk that fails leaves nothing written",
        arguments: StorageEngine.databases)
    func analyticsChunks(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let cells = Self.analyticsCells
            let ledger = try #require(store as? SQLLedgerStore)
            let analytics = store.analyticsStore()
            // Two and a half chunks of subscribers, each buying a month on a day of January or February.
            let count = SQLAnalyticsStore.chunk * 5 / 2
            let users = (0..<count).map { AppUserID(String(format: "user-%04d", $0)) }
            let events = users.enumerated().map { index, user in
                Self.monthBought(82_000 + index, user, "C\(index)", String(format: "2026-%02d-%02dT12:00:00Z", 1 + index % 2, 1 + index % 28))
            }
            // One batch (as an import appends): its outcomes are those of appending one by one.
            #expect(try await store.append(contentsOf: events).count == count)
            #expect(try await analytics.refreshAnalytics(batchSize: 1_000, cells: cells) == count)
            let expected = Self.expectedCells(events)
            #expect(try await analytics.analyticsCells(through: nil) == expected)
            #expect(try await analytics.recomputeAnalytics(batchSize: 1_000, cells: cells) == count)
            #expect(try await analytics.analyticsCells(through: nil) == expected)

            // A renewal each for a subscriber of the first chunk and one of the last, whose stored cells are damaged.
            let (first, last) = (users[1], users[count - 1])
            let renewals = [(first, 1), (last, count - 1)].map { user, index in
                LedgerEvents.notification(83_000 + index, appUserID: user, type: .didRenew, transaction: Self.apple.subscription(
                    AnalyticsLedger.individual, original: "C\(index)", id: "C\(index)-2", purchase: AnalyticsLedger.at("2026-03-01T12:00:00Z"),
                    expires: AnalyticsLedger.at("2026-04-01T12:00:00Z"), groupID: "20776E67"))
            }
            for event in renewals { _ = try await store.append(event) }
            let app = ledger.app
            try await ledger.engine.transaction { session throws(StorageError) in
                _ = try await session.execute(
                    "UPDATE analytics_contributions SET cells = '{' WHERE app_id = ? AND app_user_id = ?", [.id(app), .id(last)])
            }
            await #expect(throws: StorageError(.corruptRecord, "")) { try await analytics.refreshAnalytics(batchSize: 1_000, cells: cells) }
            #expect(try await analytics.analyticsCells(through: nil) == expected)
            #expect(try await analytics.pendingAnalytics() == 2)
            let stored = try await ledger.engine.read { session throws(StorageError) in
                try await session.execute("SELECT cells FROM analytics_contributions WHERE app_id = ? AND app_user_id = ?", [.id(app), .id(first)])
                    .first?.nullableText("cells")
            }
            #expect(try StoredAnalyticsCells.decode(try #require(stored), appUserID: first) == Self.expectedCells([events[1]]))
            // A recompute rewrites the damaged cells; the refresh then counts both renewals.
            #expect(try await analytics.recomputeAnalytics(batchSize: 1_000, cells: cells) == count)
            _ = try await analytics.refreshAnalytics(batchSize: 1_000, cells: cells)
            #expect(try await analytics.analyticsCells(through: nil) == Self.expectedCells(events + renewals))
        }
    }

    @Test(
        "a refresh that commits between a read's revision and its rows: what the read got is not kept under the earlier revision, so that refresh's own change is never added twice",
        arguments: StorageEngine.databases)
    func analyticsKeptAcrossACommit(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let cells = Self.analyticsCells
            let (mine, other, otherAnalytics, early, late) = try await Self.twoInstancesWithEarlyEvents(store)
            let events = AnalyticsLedger.events
            let app = mine.app
            let revision: @Sendable () async throws -> Int64 = {
                try await mine.engine.read { session throws(StorageError) in
                    try await session.execute("SELECT revision FROM analytics_revisions WHERE app_id = ?", [.id(app)]).first?.nullableInteger("revision") ?? 0
                }
            }
            let before = try await revision()
            // The read, with the late events appended and refreshed (another instance) just before its rows.
            let read = try await mine.engine.read { session throws(StorageError) in
                try await SQLAnalyticsStore.keptOrRead(app: app, aggregates: mine.engine.aggregates, through: nil, InterposedSession(session) {
                    for event in late { _ = try await other.append(event) }
                    _ = try await otherAnalytics.refreshAnalytics(batchSize: 100, cells: cells)
                })
            }
            #expect(read == Self.expectedCells(events))
            let after = try await revision()
            #expect(before != 0 && after != before)
            // What that refresh does once committed, had it run here: advance the cells kept at its first revision.
            mine.engine.aggregates.advance(app, from: before, to: after, adding: Self.expectedCells(events).difference(from: Self.expectedCells(early)))
            #expect(try await mine.analyticsStore().analyticsCells(through: nil) == Self.expectedCells(events))
        }
    }
}

/// A session that runs `beforeAggregates` once, just before the first statement reading `analytics_daily`.
private final class InterposedSession: SQLSession, @unchecked Sendable {
    let session: any SQLSession
    var beforeAggregates: (() async throws -> Void)?

    init(_ session: any SQLSession, beforeAggregates: @escaping () async throws -> Void) {
        self.session = session
        self.beforeAggregates = beforeAggregates
    }

    func execute(_ sql: String, _ binds: [SQLValue]) async throws(StorageError) -> [SQLRow] {
        if sql.contains("FROM analytics_daily"), let work = beforeAggregates {
            beforeAggregates = nil
            do { try await work() } catch { throw StorageError(.queryFailed, "the interposed work failed: \(error)") }
        }
        return try await session.execute(sql, binds)
    }

    func lock(_ lock: LedgerLock) async throws(StorageError) { try await session.lock(lock) }
}
