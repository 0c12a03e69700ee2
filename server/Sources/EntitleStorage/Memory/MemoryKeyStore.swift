import EntitleCore
import Foundation

/// API keys (of every app) in a ``MemoryDatabase`` (``KeyStore``), kept by their hash.
struct MemoryKeyStore: KeyStore {
    let database: MemoryDatabase

    func insertKey(_ key: StoredKey, hash: String) async throws(StorageError) {
        try database.transaction { state throws(StorageError) in
            guard state.keys[key.id] == nil, !state.keys.values.contains(where: { $0.hash == hash }) else {
                throw StorageError(.queryFailed, "an API key with the same ID or hash exists")
            }
            var stored = key
            stored.createdAt = key.createdAt.storedPrecision
            stored.revokedAt = key.revokedAt?.storedPrecision
            state.keys[key.id] = (stored, hash)
        }
    }

    func key(hash: String) async throws(StorageError) -> StoredKey? {
        database.transaction { state in state.keys.values.first { $0.hash == hash }?.key }
    }

    func keys(app: BundleID?) async throws(StorageError) -> [StoredKey] {
        database.transaction { state in
            state.keys.values.map(\.key).filter { app == nil || $0.app == app }.sorted { a, b in
                if a.app != b.app { return a.app.rawValue.utf8.lexicographicallyPrecedes(b.app.rawValue.utf8) }
                if a.createdAt != b.createdAt { return a.createdAt > b.createdAt }
                return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
            }
        }
    }

    func revokeKey(id: String, app: BundleID?, at: Date) async throws(StorageError) -> StoredKey? {
        database.transaction { state in
            guard let (key, _) = state.keys[id], app == nil || key.app == app else { return nil }
            if key.revokedAt != nil { return key }
            state.keys[id]?.key.revokedAt = at.storedPrecision
            var revoked = key
            revoked.revokedAt = at
            return revoked
        }
    }
}
