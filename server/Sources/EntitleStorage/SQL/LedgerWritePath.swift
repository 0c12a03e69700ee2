import EntitleCore
import Foundation

/// The steps of the ledger's writes each engine takes its own way — an append's first steps (locks,
/// owner, insert, projection) and a purchase's link — and the routines they need. The rest of the write
/// logic is ``LedgerRows``', written once: the transaction, folding the held events and the event,
/// storing the projection, merges and transfers. SQLite runs statements (``StatementWritePath``: one
/// writer, each statement a call into the library); PostgreSQL calls its routines
/// (``RoutineWritePath``: one round trip each).
protocol LedgerWritePath: Sendable {
    /// Stored routines, (re)created after every migration.
    var routines: [String] { get }

    /// The whole append in one statement outside any transaction, when this path can make it so;
    /// `nil`: it wrote nothing, and the append runs ``start(_:encoded:admit:rows:_:)`` in a transaction.
    func appendWhole(_ event: LedgerEvent, encoded: StoredEventRow, rows: LedgerRows) async throws(StorageError) -> AppendOutcome?

    /// An append's first steps in the caller's transaction: lock the purchase, find its owner (or the
    /// subscriber its appAccountToken was registered for), lock the subscriber, `admit`, insert, and
    /// read the projection.
    func start(
        _ event: LedgerEvent, encoded: StoredEventRow, admit: (@Sendable (SubscriberFacts) -> Bool)?, rows: LedgerRows, _ session: any SQLSession
    ) async throws(StorageError) -> LedgerRows.AppendStep

    /// Links the purchase `original`, which no subscriber owns, to `appUserID`, and adopts the events
    /// held for it; returns them in the order they were stored. The caller's transaction holds the
    /// purchase's or the subscriber's lock.
    func link(
        _ original: OriginalTransactionID, to appUserID: AppUserID, at: Date, rows: LedgerRows, _ session: any SQLSession
    ) async throws(StorageError) -> [LedgerEvent]
}
