import EntitleCore
import Foundation

/// One app's ledger in a database: the event log, the projections, identity, consumers' cursors and
/// job leases (each a role a reader or a fake can name on its own), with an SQLite and a PostgreSQL
/// implementation.
///
/// Guarantees every implementation keeps (and the conformance suite checks on each), beside each
/// role's own:
/// - A store is one app's (by bundle ID): every read and write is confined to it, so apps sharing a
///   database never see each other's events, subscribers, purchases or analytics.
/// - ``migrate()`` runs before anything else reads or writes.
public protocol LedgerStore: EventLog, ProjectionStore, IdentityStore, ConsumerCursors, JobLeases, CompanionStores {
    /// The app this store reads and writes: a bundle ID, or `""` for rows written before apps existed.
    var app: String { get }

    /// The same database, confined to `app`. Closing either closes the database.
    func forApp(_ app: String) -> any LedgerStore

    /// Every app with events or subscribers in the database, sorted (`""` for rows no app adopted yet).
    func appIDs() async throws(StorageError) -> [String]

    /// Creates the schema or brings it to the current version. A store of an app then adopts the
    /// rows written before apps existed (schema version 4 and older): they become its app's.
    func migrate() async throws(StorageError)

    /// Asks the database for one row as a read asks it (on PostgreSQL, on the calling event loop's
    /// connection when it has them, else a pooled one), reading no table: returns when the ledger
    /// answers reads, throws why it doesn't.
    func ping() async throws(StorageError)

    /// Releases connections. The store is unusable afterwards.
    func close() async
}
