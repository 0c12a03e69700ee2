import Foundation

/// A connection inside a transaction, as the ledger logic sees it. Statements use `?` placeholders;
/// each engine translates them. Rows come back as ``SQLRow``s, read by column with their types checked.
protocol SQLSession: Sendable {
    func execute(_ sql: String, _ binds: [SQLValue]) async throws(StorageError) -> [SQLRow]
    /// Runs a statement the engine may keep prepared on the connection.
    func execute<Statement: KeptStatement>(_ statement: Statement.Type, _ binds: [SQLValue]) async throws(StorageError) -> [SQLRow]
    /// Serialises writers of one thing (a subscriber, a purchase…) until the transaction ends.
    func lock(_ lock: LedgerLock) async throws(StorageError)
    /// Takes `locks` in their order, as ``lock(_:)`` one after the other would (engines may take them in
    /// fewer round trips).
    func lock(_ locks: [LedgerLock]) async throws(StorageError)
}

extension SQLSession {
    func lock(_ locks: [LedgerLock]) async throws(StorageError) {
        for lock in locks { try await self.lock(lock) }
    }

    /// A kept statement run as any other, by its text (SQLite keeps every statement by its text).
    func execute<Statement: KeptStatement>(_ statement: Statement.Type, _ binds: [SQLValue]) async throws(StorageError) -> [SQLRow] {
        try await execute(Statement.sql, binds)
    }
}

/// Runs work in transactions on one engine.
protocol SQLEngine: Sendable {
    /// Runs `work` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<T: Sendable>(_ work: @escaping @Sendable (any SQLSession) async throws(StorageError) -> T) async throws(StorageError) -> T
    /// Runs read-only `work`: a single statement, consistent on its own; engines may run reads beside
    /// writes, and outside a transaction.
    func read<T: Sendable>(_ work: @Sendable (any SQLSession) async throws(StorageError) -> T) async throws(StorageError) -> T
    /// The column type of an auto-increment primary key.
    var sequenceColumn: String { get }
    /// Moves `ledger_events`' sequence past the rows a migration copied in with their sequences;
    /// `nil` when the engine does so itself (SQLite's AUTOINCREMENT).
    var sequenceReset: String? { get }
    /// Makes `ledger_events.signed_payload` stored without compression; `nil` when the engine never
    /// compresses (SQLite).
    var uncompressedPayloads: String? { get }
    /// What makes a text comparison compare bytes (`COLLATE "C"` on PostgreSQL; SQLite's comparison
    /// already does).
    var byteOrder: String { get }
    /// Run before every event insert, in its transaction (PostgreSQL: a shared lock that
    /// ``readHorizon()`` waits out).
    var appendGuardStatement: String? { get }
    /// The SQL expression of the instant `milliseconds` (a column of milliseconds since 1970) as the
    /// engine shows instants: an ISO 8601 text on SQLite, a `timestamptz` on PostgreSQL.
    func instant(_ milliseconds: String) -> String
    /// The SQL expression of the date `day` (a column of days since 1970-01-01).
    func date(_ day: String) -> String
    /// Run before and after a customer's erasure, in its transaction: what makes the engine overwrite
    /// the content it frees (SQLite's `secure_delete`); `nil` when it has no such setting (PostgreSQL,
    /// where VACUUM reclaims old row versions).
    var secureDeletion: (on: String, off: String)? { get }
    /// The analytics aggregates this process keeps of the database, shared by every app's
    /// ``SQLAnalyticsStore`` on the engine.
    var aggregates: AggregateCache { get }
    /// The certificate chains of stored signed payloads this process knows, shared by every app's
    /// store on the engine.
    var chains: CertificateChainCache { get }
    /// Runs `work`, a single statement that writes and is atomic on its own (a stored routine), outside
    /// any transaction: committed when it returns.
    func statement<T: Sendable>(_ work: @escaping @Sendable (any SQLSession) async throws(StorageError) -> T) async throws(StorageError) -> T
    /// A sequence at or below which every event is committed (or never will be): what ledger
    /// consumers may read up to without passing an event that commits later with a smaller sequence.
    func readHorizon() async throws(StorageError) -> Int64
    func close() async
}
