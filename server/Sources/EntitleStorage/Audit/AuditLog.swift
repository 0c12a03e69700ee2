import Foundation

/// One app's audit log, in the ledger's database: append-only (no method changes or removes an entry).
public protocol AuditLog: Sendable {
    /// Appends `entry` (its sequence is the store's).
    func append(_ entry: AuditEntry) async throws(StorageError)
    /// Up to `limit` entries, the newest first, before `sequence` when given.
    func entries(before sequence: Int64?, limit: Int) async throws(StorageError) -> [AuditEntry]
}
