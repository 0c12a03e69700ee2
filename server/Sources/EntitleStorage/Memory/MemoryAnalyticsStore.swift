import EntitleAnalytics
import EntitleCore
import Foundation

/// An app's analytics aggregates in a ``MemoryDatabase`` (``AnalyticsStore``): each refresh and each
/// recompute batch is one transaction on the ledger and the aggregates together.
final class MemoryAnalyticsStore: AnalyticsStore {
    let database: MemoryDatabase
    let app: BundleID
    static let consumer: LedgerConsumer = "analytics"

    init(database: MemoryDatabase, app: BundleID) {
        self.database = database
        self.app = app
    }

    /// Runs `body` as one transaction on the app's ledger and aggregates.
    private func transaction<Result>(_ body: (inout MemoryLedger, inout MemoryAnalytics) -> Result) -> Result {
        let app = app
        return database.transaction { state in
            var ledger = state.ledgers.removeValue(forKey: app) ?? MemoryLedger()
            var analytics = state.analytics.removeValue(forKey: app) ?? MemoryAnalytics()
            defer {
                state.ledgers[app] = ledger
                state.analytics[app] = analytics
            }
            return body(&ledger, &analytics)
        }
    }

    func refreshAnalytics(
        batchSize: Int, cells: @escaping @Sendable (AppUserID, [LedgerEvent]) -> AnalyticsCells
    ) async throws(StorageError) -> Int {
        let batchSize = max(1, batchSize)
        var refreshed = Set<AppUserID>()
        while !Task.isCancelled {
            let (subscribers, events): ([AppUserID], Int) = transaction { ledger, analytics in
                let position = ledger.cursors[Self.consumer] ?? 0
                let entries = ledger.rows(after: position).prefix(batchSize)
                guard let last = entries.last else { return ([], 0) }
                let ids = Set(entries.compactMap(\.appUserID)).sorted(by: MemoryLedger.byteOrder)
                // During a recompute, the subscribers it hasn't reached are left to it.
                for id in ids where !analytics.uncounted(id) {
                    analytics.recompute(id, events: ledger.events(of: id).map { MemoryLedgerStore.bare($0.event) }, counted: true, cells: cells)
                }
                ledger.cursors[Self.consumer] = last.sequence
                return (ids, entries.count)
            }
            refreshed.formUnion(subscribers)
            if events < batchSize { break }
        }
        return refreshed.count
    }

    func startRecompute() async throws(StorageError) {
        transaction { ledger, analytics in Self.begin(&ledger, &analytics) }
    }

    func startRecompute(unlessDefinitionsAre version: Int) async throws(StorageError) -> Bool {
        transaction { ledger, analytics in
            guard analytics.definitionsVersion != version else { return false }
            Self.begin(&ledger, &analytics)
            analytics.definitionsVersion = version
            return true
        }
    }

    /// Drops the aggregates, marks that no subscriber is counted, and moves the cursor to the ledger's head.
    private static func begin(_ ledger: inout MemoryLedger, _ analytics: inout MemoryAnalytics) {
        analytics.aggregates = [:]
        analytics.recomputedThrough = ""
        ledger.cursors[consumer] = ledger.rows.last?.sequence ?? 0
    }

    func recomputeBatch(
        batchSize: Int, cells: @escaping @Sendable (AppUserID, [LedgerEvent]) -> AnalyticsCells
    ) async throws(StorageError) -> (subscribers: Int, finished: Bool) {
        let batchSize = max(1, batchSize)
        return transaction { ledger, analytics in
            guard let from = analytics.recomputedThrough else { return (0, true) }
            let ids = Array(ledger.projections.keys.filter { MemoryLedger.byteOrder(from, $0) }.sorted(by: MemoryLedger.byteOrder).prefix(batchSize))
            for id in ids {
                analytics.recompute(id, events: ledger.events(of: id).map { MemoryLedgerStore.bare($0.event) }, counted: false, cells: cells)
            }
            let last = ids.count < batchSize ? nil : ids.last
            // Cells kept for ids this batch passed over (no subscriber) are dropped.
            let passed = Set(ids)
            for id in analytics.contributions.keys
            where MemoryLedger.byteOrder(from, id) && (last.map { !MemoryLedger.byteOrder($0, id) } ?? true) && !passed.contains(id) {
                analytics.contributions[id] = nil
            }
            analytics.recomputedThrough = last
            return (ids.count, last == nil)
        }
    }

    func recomputeUnderWay() async throws(StorageError) -> Bool {
        transaction { _, analytics in analytics.recomputedThrough != nil }
    }

    func analyticsCells(through day: Int?) async throws(StorageError) -> AnalyticsCells {
        transaction { _, analytics in
            guard let day else { return analytics.aggregates }
            return analytics.aggregates.filter { $0.key.day <= day }
        }
    }

    func pendingAnalytics() async throws(StorageError) -> Int {
        database.read(app) { ledger in ledger.rows(after: ledger.cursors[Self.consumer] ?? 0).count }
    }
}
