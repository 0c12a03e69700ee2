import EntitleAnalytics
import EntitleCore
import Foundation

/// The analytics aggregates: each subscriber's cells and their daily sums, kept beside the ledger
/// and brought up to date by reading the ledger through a durable cursor.
///
/// Guarantees every implementation keeps (and the conformance suite checks on each): after a
/// refresh, the aggregates equal the sum of every subscriber's cells computed from all their events;
/// a refresh interrupted at any point leaves them consistent, and the next one completes it.
public protocol AnalyticsStore: Sendable {
    /// Brings the aggregates up to date: reads the ledger past the analytics cursor in batches of
    /// `batchSize` events; for each subscriber those events touch, computes their cells from all
    /// their events with `cells` and adds the difference from the cells added before; advances the
    /// cursor in the same transaction. Returns how many subscribers were refreshed.
    func refreshAnalytics(
        batchSize: Int, cells: @escaping @Sendable (_ appUserID: String, _ events: [LedgerEvent]) -> AnalyticsCells
    ) async throws(StorageError) -> Int

    /// Drops the aggregates and computes them again from the whole ledger, `batchSize` subscribers
    /// per transaction. Returns how many subscribers.
    func recomputeAnalytics(
        batchSize: Int, cells: @escaping @Sendable (_ appUserID: String, _ events: [LedgerEvent]) -> AnalyticsCells
    ) async throws(StorageError) -> Int

    /// The aggregate cells of days up to `day` (all of them when `nil`).
    func analyticsCells(through day: Int?) async throws(StorageError) -> AnalyticsCells

    /// How many ledger events the aggregates have not read yet.
    func pendingAnalytics() async throws(StorageError) -> Int
}
