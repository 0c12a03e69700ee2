import EntitleCore
import Foundation

/// The durable cursors of the ledger's consumers (analytics, webhooks, consumption requests): each
/// reads the app's events past its cursor and moves it once their effects are committed.
public protocol ConsumerCursors: Sendable {
    /// The app's events past `consumer`'s durable cursor, at most `limit`, in sequence order, never past
    /// an event that may still commit with a smaller sequence. A consumer seen for the first time
    /// starts with the events received at or after `since` (what is older is not its business).
    func consumerEvents(
        _ consumer: LedgerConsumer, limit: Int, since: Date
    ) async throws(StorageError) -> (position: Int64, events: [(sequence: Int64, event: LedgerEvent)])

    /// Moves `consumer`'s cursor from `position` to `sequence`; `false` (nothing changed) when another
    /// instance moved it first.
    func advanceConsumer(_ consumer: LedgerConsumer, from position: Int64, to sequence: Int64) async throws(StorageError) -> Bool
}
