import EntitleCore
import Foundation

/// API keys in the ledger's database, written once over ``SQLEngine``.
final class SQLKeyStore: KeyStore {
    let engine: any SQLEngine

    init(engine: any SQLEngine) {
        self.engine = engine
    }

    func insertKey(_ key: StoredKey, hash: String) async throws(StorageError) {
        try await engine.transaction { session throws(StorageError) in
            _ = try await session.execute(
                "INSERT INTO api_keys (id, app_id, kind, name, prefix, key_hash, created_at, revoked_at, scope) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [.text(key.id), .id(key.app), .text(key.kind.rawValue), SQLValue(key.name), .text(key.prefix), .text(hash),
                 SQLValue(key.createdAt), SQLValue(key.revokedAt), key.scope == .admin ? .null : .text(key.scope.rawValue)])
        }
    }

    func key(hash: String) async throws(StorageError) -> StoredKey? {
        try await engine.read { session throws(StorageError) in
            try Self.decode(await session.execute("SELECT * FROM api_keys WHERE key_hash = ?", [.text(hash)])).first
        }
    }

    func keys(app: BundleID?) async throws(StorageError) -> [StoredKey] {
        try await engine.read { session throws(StorageError) in
            if let app {
                return try Self.decode(await session.execute("SELECT * FROM api_keys WHERE app_id = ? ORDER BY created_at DESC, id", [.id(app)]))
            }
            return try Self.decode(await session.execute("SELECT * FROM api_keys ORDER BY app_id, created_at DESC, id", []))
        }
    }

    func revokeKey(id: String, app: BundleID?, at: Date) async throws(StorageError) -> StoredKey? {
        try await engine.transaction { session throws(StorageError) in
            guard let key = try Self.decode(await session.execute("SELECT * FROM api_keys WHERE id = ?", [.text(id)])).first,
                app == nil || key.app == app
            else { return nil }
            if key.revokedAt != nil { return key }
            _ = try await session.execute("UPDATE api_keys SET revoked_at = ? WHERE id = ?", [SQLValue(at), .text(id)])
            var revoked = key
            revoked.revokedAt = at
            return revoked
        }
    }

    private static func decode(_ rows: [SQLRow]) throws(StorageError) -> [StoredKey] {
        try rows.map { row throws(StorageError) in
            guard let id = try row.nullableText("id"), let app: BundleID = try row.nullableID("app_id"), let kind = try row.nullableText("kind").flatMap(StoredKey.Kind.init),
                let prefix = try row.nullableText("prefix"), let created = try row.nullableDate("created_at")
            else { throw StorageError(.corruptRecord, "an API key row is incomplete") }
            return StoredKey(
                id: id, app: app, kind: kind, name: try row.nullableText("name"), prefix: prefix,
                createdAt: created,
                revokedAt: try row.nullableDate("revoked_at"),
                // No scope (keys made before scopes): admin, as they were.
                scope: try row.nullableText("scope").flatMap(StoredKey.Scope.init(rawValue:)) ?? .admin)
        }
    }
}
