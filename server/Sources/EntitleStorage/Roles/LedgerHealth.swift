/// Whether the ledger answers: what readiness checks and the operator's status ask.
public protocol LedgerHealth: Sendable {
    /// Asks the database for one row as a read asks it (on PostgreSQL, on the calling event loop's
    /// connection when it has them, else a pooled one), reading no table: returns when the ledger
    /// answers reads, throws why it doesn't.
    func ping() async throws(StorageError)
}
