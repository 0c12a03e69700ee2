import EntitleCore
import Foundation

/// API keys kept in the ledger's database, hashed. Every server instance sharing the database sees the
/// same keys; a revocation takes effect on each within its cache's lifetime.
public protocol KeyStore: Sendable {
    /// Stores a new key's hash (the caller made the key and shows it once).
    func insertKey(_ key: StoredKey, hash: String) async throws(StorageError)
    /// The key whose SHA-256 hash (hex) is `hash`, revoked or not.
    func key(hash: String) async throws(StorageError) -> StoredKey?
    /// The keys of `app` (every app when `nil`), newest first.
    func keys(app: BundleID?) async throws(StorageError) -> [StoredKey]
    /// Revokes the key `id` at `at` (of `app` only, when given); returns it, or `nil` when there is none.
    func revokeKey(id: String, app: BundleID?, at: Date) async throws(StorageError) -> StoredKey?
}
