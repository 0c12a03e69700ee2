import EntitleCore
import Foundation

/// A ledger kept in memory (``MemoryDatabase``): every role of ``LedgerStore``, each operation one
/// transaction under the database's lock, its write logic in ``MemoryLedger``. Conformance-tested with
/// the SQLite and PostgreSQL stores; the tests of services run on it without a database.
public final class MemoryLedgerStore: LedgerStore {
    public let app: BundleID
    let database: MemoryDatabase

    /// A store of `app` in `database` (a new, empty one by default).
    public init(database: MemoryDatabase = MemoryDatabase(), app: BundleID = "") {
        self.database = database
        self.app = app
    }

    public func forApp(_ app: BundleID) -> any LedgerStore { MemoryLedgerStore(database: database, app: app) }

    public func appIDs() async throws(StorageError) -> [BundleID] {
        database.transaction { state in
            state.ledgers.filter { !$0.value.isEmpty }.keys.sorted { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) }
        }
    }

    /// Nothing to create: a memory database has no schema.
    public func migrate() async throws(StorageError) {}

    public func ping() async throws(StorageError) {}

    public var companions: any CompanionStores { MemoryCompanionStores(database: database, app: app) }

    /// Nothing to release: the database lives as long as something refers to it.
    public func close() async {}

    // MARK: - EventLog

    public func append(_ event: LedgerEvent) async throws(StorageError) -> AppendOutcome {
        try database.appending(app) { ledger, sequence, elsewhere throws(StorageError) in
            var touched: [AppUserID: Date] = [:]
            return try ledger.append(event, admit: nil, elsewhere: elsewhere, sequence: &sequence, touched: &touched)
        }
    }

    public func append(_ event: LedgerEvent, admitting admit: @escaping @Sendable (SubscriberFacts) -> Bool) async throws(StorageError) -> AppendOutcome {
        try database.appending(app) { ledger, sequence, elsewhere throws(StorageError) in
            var touched: [AppUserID: Date] = [:]
            return try ledger.append(event, admit: admit, elsewhere: elsewhere, sequence: &sequence, touched: &touched)
        }
    }

    public func append(contentsOf events: [LedgerEvent]) async throws(StorageError) -> [AppendOutcome] {
        try database.appending(app) { ledger, sequence, elsewhere throws(StorageError) in
            try ledger.checkIDs(events, elsewhere: elsewhere)
            var touched: [AppUserID: Date] = [:]
            var outcomes: [AppendOutcome] = []
            outcomes.reserveCapacity(events.count)
            // Checked above: no event's ID is taken, so none of these appends throws.
            for event in events { outcomes.append(try ledger.append(event, admit: nil, elsewhere: { _ in false }, sequence: &sequence, touched: &touched)) }
            ledger.stamp(touched)
            return outcomes
        }
    }

    public func latestGlobalEvent(source: LedgerEventSource) async throws(StorageError) -> LedgerEvent? {
        database.read(app) { ledger in ledger.latestGlobalEvent(source).map { Self.bare($0.event) } }
    }

    public func globalEvents(source: LedgerEventSource) async throws(StorageError) -> [LedgerEvent] {
        database.read(app) { ledger in ledger.globalEvents(source).map(\.event) }
    }

    public func events(appUserID: AppUserID) async throws(StorageError) -> [LedgerEvent] {
        database.read(app) { ledger in ledger.events(of: appUserID).map(\.event) }
    }

    public func events(
        appUserIDs: Set<AppUserID>, after sequence: Int64
    ) async throws(StorageError) -> [(sequence: Int64, appUserID: AppUserID, event: LedgerEvent)] {
        database.read(app) { ledger in
            ledger.rows(after: sequence).compactMap { row in
                guard let owner = row.appUserID, appUserIDs.contains(owner) else { return nil }
                return (row.sequence, owner, Self.bare(row.event))
            }
        }
    }

    public func heldEvents(originalTransactionID: OriginalTransactionID) async throws(StorageError) -> [LedgerEvent] {
        database.read(app) { ledger in ledger.heldEvents(of: originalTransactionID).map(\.event) }
    }

    public func heldEventCount() async throws(StorageError) -> Int {
        database.read(app) { ledger in ledger.heldEventCount }
    }

    public func heldPurchases() async throws(StorageError) -> [OriginalTransactionID] {
        database.read(app) { ledger in ledger.heldPurchases }
    }

    public func eventCount() async throws(StorageError) -> Int {
        database.read(app) { ledger in ledger.rows.count }
    }

    /// The event as the reads made for folding and consumers give it: without its signed payload.
    static func bare(_ event: LedgerEvent) -> LedgerEvent {
        var event = event
        event.rawSignedPayload = nil
        return event
    }
}
