import EntitleAnalytics
import EntitleCore
import Foundation
import Synchronization

/// A ledger database in memory: every app's ledger and the stores kept beside it, changed one
/// transaction at a time under one lock, gone with the process. The third engine beside SQLite and
/// PostgreSQL, held to the same conformance suite: for tests of services without a database, and for
/// trying Entitle without a file (`entitle serve --database memory:`).
public final class MemoryDatabase: Sendable {
    struct State: Sendable {
        /// The next ledger position, shared by every app (as the SQL engines' sequence is).
        var nextSequence: Int64 = 1
        /// The next webhook delivery's ID, shared by every app.
        var nextDeliveryID: Int64 = 1
        var ledgers: [BundleID: MemoryLedger] = [:]
        var analytics: [BundleID: MemoryAnalytics] = [:]
        var webhooks: [BundleID: MemoryWebhooks] = [:]
        var setAside: [BundleID: [SetAsideEvent]] = [:]
        var keys: [String: (key: StoredKey, hash: String)] = [:]
        var adminJobs: [BundleID: [String: AdminJob]] = [:]
        var importJobs: [BundleID: [String: StoredImportJob]] = [:]
        var audit: [BundleID: [AuditEntry]] = [:]
        var nextAuditSequence: Int64 = 1
        var dashboardSessions: [String: DashboardSession] = [:]
        var dashboardAccounts: [String: DashboardAccount] = [:]
        var dashboardInvitations: [String: DashboardInvitation] = [:]
        var passkeys: [String: DashboardPasskey] = [:]
        var challenges: [String: DashboardChallenge] = [:]
        var traces: [BundleID: [String: (traceParent: String, at: Date)]] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// Runs `body` as one transaction on the whole database.
    func transaction<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        try state.withLock { state throws(Failure) in try body(&state) }
    }

    /// Runs `body` as one transaction on `app`'s ledger, with the database's next ledger position. The
    /// ledger's write logic can't fail halfway (it throws nothing), so a transaction is whole or absent.
    func ledger<Result>(_ app: BundleID, _ body: (inout MemoryLedger, inout Int64) -> Result) -> Result {
        state.withLock { state in
            // Moved out and back, so the change is made in place rather than on a copy.
            var ledger = state.ledgers.removeValue(forKey: app) ?? MemoryLedger()
            defer { state.ledgers[app] = ledger }
            return body(&ledger, &state.nextSequence)
        }
    }

    /// ``ledger(_:_:)`` for an append: `body` is also given whether an ID is another app's stored
    /// event's (event IDs are unique in the whole database, as the SQL engines' are; the ledger knows its
    /// own). An append fails only before it writes (an ID taken), so it too is whole or absent.
    func appending<Result>(
        _ app: BundleID, _ body: (inout MemoryLedger, inout Int64, _ taken: (UUID) -> Bool) throws(StorageError) -> Result
    ) throws(StorageError) -> Result {
        try state.withLock { state throws(StorageError) in
            var ledger = state.ledgers.removeValue(forKey: app) ?? MemoryLedger()
            defer { state.ledgers[app] = ledger }
            let others = state.ledgers.values.filter { !$0.ids.isEmpty }
            return try body(&ledger, &state.nextSequence) { id in others.contains { $0.ids.contains(id) } }
        }
    }

    /// Reads `app`'s ledger.
    func read<Result, Failure: Error>(_ app: BundleID, _ body: (MemoryLedger) throws(Failure) -> Result) throws(Failure) -> Result {
        try state.withLock { state throws(Failure) in try body(state.ledgers[app] ?? MemoryLedger()) }
    }
}
