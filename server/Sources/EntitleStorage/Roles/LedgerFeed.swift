import EntitleCore
import Foundation

/// The ledger read in order from a position its reader keeps (an export's cursor): unlike a consumer's
/// (``ConsumerCursors``), nothing is stored.
///
/// Guarantees every implementation keeps (and the conformance suite checks on each): every event is at
/// one position, positions only grow, and an event that commits after ``feedHead()`` answered is at a
/// position past it, so a reader that went through the head and goes on from it misses nothing.
public protocol LedgerFeed: Sendable {
    /// The position through which every event is committed.
    func feedHead() async throws(StorageError) -> Int64

    /// The app's events after `position` and through `head`, at most `limit`, in position order.
    func feedEvents(after position: Int64, through head: Int64, limit: Int) async throws(StorageError) -> [(sequence: Int64, event: LedgerEvent)]

    /// The app's events at `sequences` (those that are the app's), whole: with the signed payload as
    /// received (what notification forwarding sends on).
    func wholeEvents(sequences: [Int64]) async throws(StorageError) -> [Int64: LedgerEvent]
}
