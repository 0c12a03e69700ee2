import EntitleAnalytics
import EntitleCore
import Foundation

/// The analytics aggregates: each subscriber's cells and their daily sums, kept beside the ledger
/// and brought up to date by reading the ledger through a durable cursor.
///
/// Guarantees every implementation keeps (and the conformance suite checks on each): with no
/// recompute under way, after a refresh the aggregates equal the sum of every subscriber's cells
/// computed from all their events; a refresh interrupted at any point leaves them consistent, and the
/// next one completes it. A recompute interrupted at any point leaves them counting exactly the
/// subscribers it has reached, and ``finishRecompute(batchSize:cells:)`` completes it.
public protocol AnalyticsStore: Sendable {
    /// Brings the aggregates up to date: reads the ledger past the analytics cursor in batches of
    /// `batchSize` events; for each subscriber those events touch, computes their cells from all
    /// their events with `cells` and adds the difference from the cells added before; advances the
    /// cursor in the same transaction. Subscribers a recompute under way hasn't reached are left to it.
    /// Stops between batches when the task is cancelled (graceful shutdown): the next refresh goes on
    /// from the cursor. Returns how many subscribers were refreshed.
    func refreshAnalytics(
        batchSize: Int, cells: @escaping @Sendable (_ appUserID: AppUserID, _ events: [LedgerEvent]) -> AnalyticsCells
    ) async throws(StorageError) -> Int

    /// Starts a full recompute: drops the aggregates and stores that no subscriber is counted yet
    /// (taking over a recompute under way, which then shares this one's progress). The ledger up to
    /// its head is left to the recompute's batches; what comes after, to the next refresh.
    func startRecompute() async throws(StorageError)

    /// Starts a full recompute, as ``startRecompute()``, unless the aggregates were last computed under
    /// definitions `version` (``AnalyticsContributor/definitionsVersion``), and stores that they now
    /// are: a server whose analytics count something new or differently recounts the ledger once,
    /// whichever instance gets there first. Returns whether it started one.
    func startRecompute(unlessDefinitionsAre version: Int) async throws(StorageError) -> Bool

    /// Recomputes the next `batchSize` subscribers (in the order of their ids) of the recompute under
    /// way, in one transaction, and stores how far it has reached; `finished` once none is left (or
    /// none was under way).
    func recomputeBatch(
        batchSize: Int, cells: @escaping @Sendable (_ appUserID: AppUserID, _ events: [LedgerEvent]) -> AnalyticsCells
    ) async throws(StorageError) -> (subscribers: Int, finished: Bool)

    /// Whether a recompute is under way: started and not finished (interrupted, or running elsewhere).
    func recomputeUnderWay() async throws(StorageError) -> Bool

    /// The aggregate cells of days up to `day` (all of them when `nil`).
    func analyticsCells(through day: Int?) async throws(StorageError) -> AnalyticsCells

    /// How many ledger events the aggregates have not read yet.
    func pendingAnalytics() async throws(StorageError) -> Int
}

extension AnalyticsStore {
    /// Drops the aggregates and computes them again from the whole ledger, `batchSize` subscribers
    /// per transaction. Returns how many subscribers.
    public func recomputeAnalytics(
        batchSize: Int, cells: @escaping @Sendable (_ appUserID: AppUserID, _ events: [LedgerEvent]) -> AnalyticsCells
    ) async throws(StorageError) -> Int {
        try await startRecompute()
        return try await finishRecompute(batchSize: batchSize, cells: cells)
    }

    /// Runs the batches of the recompute under way (one interrupted, say, or one running elsewhere,
    /// whose batches then alternate with these) until none is left. Returns how many subscribers these
    /// batches recomputed: 0 when none was under way. Stops between batches when the task is
    /// cancelled; the progress stays stored, so the next call continues from there.
    public func finishRecompute(
        batchSize: Int, cells: @escaping @Sendable (_ appUserID: AppUserID, _ events: [LedgerEvent]) -> AnalyticsCells
    ) async throws(StorageError) -> Int {
        guard !Task.isCancelled, try await recomputeUnderWay() else { return 0 }
        var total = 0
        while !Task.isCancelled {
            let (count, finished) = try await recomputeBatch(batchSize: batchSize, cells: cells)
            total += count
            if finished { break }
        }
        return total
    }
}
