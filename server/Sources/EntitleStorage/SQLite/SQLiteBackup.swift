import CSQLite
import Foundation

/// A copy of an SQLite ledger taken while it is in use (`entitle backup`, docs/operations.md): SQLite's
/// online backup API copies the database's pages under one read transaction, so the copy is the ledger
/// at one instant — every committed event, none half-written — whatever the server writes meanwhile
/// (WAL: the server's writes don't wait for it). The copy is then checked (`PRAGMA integrity_check`).
public enum SQLiteBackup {
    /// What a backup copied.
    public struct Outcome: Sendable, Hashable {
        /// The copy's size in bytes.
        public var bytes: Int
        /// Pages copied.
        public var pages: Int
    }

    /// Copies the database at `source` to `destination` (which must not exist) and checks the copy.
    public static func copy(from source: String, to destination: String) throws(StorageError) -> Outcome {
        guard FileManager.default.fileExists(atPath: source) else { throw StorageError(.unavailable, "no SQLite database at \(source)") }
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw StorageError(.invalidURL, "\(destination) exists: a backup never overwrites a file")
        }
        do {
            return try copyChecked(from: source, to: destination)
        } catch {
            // Nothing half-written: a copy that failed is no backup.
            try? FileManager.default.removeItem(atPath: destination)
            throw error
        }
    }

    private static func copyChecked(from source: String, to destination: String) throws(StorageError) -> Outcome {
        let from = try SQLiteHandle(path: source)
        let to = try SQLiteHandle(path: destination)
        let pages = try to.withDatabase { target throws(StorageError) in
            try from.withDatabase { origin throws(StorageError) in
                guard let backup = entitle_sqlite3_backup_init(target, "main", origin, "main") else {
                    throw StorageError(.queryFailed, "the backup could not start: \(String(cString: entitle_sqlite3_errmsg(target)))")
                }
                // All pages in one step: one read transaction, one instant of the ledger. A writer holding
                // the write lock only delays it (busy).
                var status = entitle_sqlite3_backup_step(backup, -1)
                var waited = 0
                while status == SQLITE_BUSY || status == SQLITE_LOCKED, waited < 200 {
                    usleep(25_000)
                    waited += 1
                    status = entitle_sqlite3_backup_step(backup, -1)
                }
                let total = Int(entitle_sqlite3_backup_pagecount(backup))
                let finished = entitle_sqlite3_backup_finish(backup)
                guard status == SQLITE_DONE, finished == SQLITE_OK else {
                    throw StorageError(.queryFailed, "the backup did not complete (status \(status)): \(String(cString: entitle_sqlite3_errstr(status)))")
                }
                return total
            }
        }
        let check = try to.execute("PRAGMA integrity_check", [])
        guard check.count == 1, try check.first?.nullableText("integrity_check") == "ok" else {
            throw StorageError(.corruptRecord, "the copy failed SQLite's integrity check")
        }
        from.close()
        to.close()
        let bytes = (try? FileManager.default.attributesOfItem(atPath: destination)[.size] as? Int) ?? 0
        return Outcome(bytes: bytes, pages: pages)
    }
}
