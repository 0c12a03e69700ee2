import EntitleCore
import Foundation
import Logging

/// The embedded ledger: an SQLite file, created and migrated on open.
public enum SQLiteLedgerStore {
    /// Opens the ledger at `path` (created with its folder when missing) and migrates it.
    public static func open(path: String, logger: Logger = Logger(label: "entitle.storage.sqlite")) async throws(StorageError) -> any LedgerStore {
        let store = SQLLedgerStore(engine: try await SQLiteEngine.open(path: path, logger: logger), writePath: StatementWritePath())
        do {
            try await store.migrate()
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    /// Opens the ledger at `path` without migrating it (the owner migrates once it is ready).
    static func openUnmigrated(path: String, logger: Logger, observer: StorageObserver = .none) async throws(StorageError) -> any LedgerStore {
        SQLLedgerStore(engine: try await SQLiteEngine.open(path: path, logger: logger, observer: observer), writePath: StatementWritePath())
    }
}
