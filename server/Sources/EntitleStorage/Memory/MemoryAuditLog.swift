import EntitleCore
import Foundation

/// An app's audit log in a ``MemoryDatabase`` (``AuditLog``).
struct MemoryAuditLog: AuditLog {
    let database: MemoryDatabase
    let app: BundleID

    func append(_ entry: AuditEntry) async throws(StorageError) {
        database.transaction { state in
            var stored = entry
            stored.sequence = state.nextAuditSequence
            stored.at = entry.at.storedPrecision
            state.nextAuditSequence += 1
            state.audit[app, default: []].append(stored)
        }
    }

    func entries(before sequence: Int64?, limit: Int) async throws(StorageError) -> [AuditEntry] {
        database.transaction { state in
            Array((state.audit[app] ?? []).filter { $0.sequence < sequence ?? .max }.reversed().prefix(min(max(limit, 1), 1_000)))
        }
    }
}
