import EntitleCore
import Foundation

/// A consumer's durable position in the ledger, and the events past it.
///
/// Consumers (analytics; webhooks and reconciliation next) read events in sequence order, never past
/// the engine's read horizon (so never past an event that commits later with a smaller sequence),
/// and advance their cursor in the same transaction as the work it records: a crash repeats work and
/// never skips it.
struct LedgerCursor {
    /// An event past the cursor: its sequence and whose it is (`nil` while its purchase has no owner).
    struct Entry: Sendable {
        var sequence: Int64
        var appUserID: String?
    }

    /// The app whose events the consumer reads.
    let app: BundleID
    let consumer: LedgerConsumer

    /// The last sequence the consumer has read (0 when it never has).
    func position(_ session: any SQLSession) async throws(StorageError) -> Int64 {
        try await session.execute("SELECT sequence FROM ledger_cursors WHERE app_id = ? AND consumer = ?", [.id(app), .text(consumer.rawValue)])
            .first?.nullableInteger("sequence") ?? 0
    }

    /// Moves the cursor to `sequence`, inside the caller's transaction.
    func advance(to sequence: Int64, _ session: any SQLSession) async throws(StorageError) {
        _ = try await session.execute(
            """
            INSERT INTO ledger_cursors (app_id, consumer, sequence) VALUES (?, ?, ?)
            ON CONFLICT (app_id, consumer) DO UPDATE SET sequence = excluded.sequence
            """, [.id(app), .text(consumer.rawValue), .integer(sequence)])
    }

    /// Up to `limit` of the app's events after `sequence`, at or below `horizon`, in sequence order.
    func entries(after sequence: Int64, horizon: Int64, limit: Int, _ session: any SQLSession) async throws(StorageError) -> [Entry] {
        try await session.execute(
            "SELECT sequence, app_user_id FROM ledger_events WHERE app_id = ? AND sequence > ? AND sequence <= ? ORDER BY sequence LIMIT ?",
            [.id(app), .integer(sequence), .integer(horizon), .integer(Int64(limit))]
        ).map { row throws(StorageError) in Entry(sequence: try row.integer("sequence"), appUserID: try row.nullableText("app_user_id")) }
    }

    /// The app's last sequence at or below `horizon` (0 when it has no events).
    func head(horizon: Int64, _ session: any SQLSession) async throws(StorageError) -> Int64 {
        try await session.execute(
            "SELECT MAX(sequence) AS head FROM ledger_events WHERE app_id = ? AND sequence <= ?", [.id(app), .integer(horizon)]
        ).first?.nullableInteger("head") ?? 0
    }

    /// How many of the app's events are past `sequence`.
    func backlog(after sequence: Int64, _ session: any SQLSession) async throws(StorageError) -> Int {
        Int(try await session.execute(
            "SELECT COUNT(*) AS n FROM ledger_events WHERE app_id = ? AND sequence > ?", [.id(app), .integer(sequence)]
        ).first?.nullableInteger("n") ?? 0)
    }
}
