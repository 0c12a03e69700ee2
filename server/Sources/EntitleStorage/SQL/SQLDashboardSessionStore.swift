import Foundation

/// The dashboard's sessions in the ledger's database (`dashboard_sessions`), written once over ``SQLEngine``.
final class SQLDashboardSessionStore: DashboardSessionStore {
    let engine: any SQLEngine

    init(engine: any SQLEngine) {
        self.engine = engine
    }

    func insertSession(hash: String, _ session: DashboardSession) async throws(StorageError) {
        try await engine.transaction { sql throws(StorageError) in
            _ = try await sql.execute(
                "INSERT INTO dashboard_sessions (session_hash, created_at, expires_at, revoked_at) VALUES (?, ?, ?, ?)",
                [.text(hash), SQLValue(session.createdAt), SQLValue(session.expiresAt), SQLValue(session.revokedAt)])
        }
    }

    func session(hash: String) async throws(StorageError) -> DashboardSession? {
        try await engine.read { sql throws(StorageError) in
            guard let row = try await sql.execute("SELECT * FROM dashboard_sessions WHERE session_hash = ?", [.text(hash)]).first else { return nil }
            guard let created = try row.nullableDate("created_at"), let expires = try row.nullableDate("expires_at") else {
                throw StorageError(.corruptRecord, "a dashboard session's row is incomplete")
            }
            return DashboardSession(createdAt: created, expiresAt: expires, revokedAt: try row.nullableDate("revoked_at"))
        }
    }

    func revokeSession(hash: String, at: Date) async throws(StorageError) -> Bool {
        try await engine.transaction { sql throws(StorageError) in
            !(try await sql.execute(
                "UPDATE dashboard_sessions SET revoked_at = ? WHERE session_hash = ? AND revoked_at IS NULL RETURNING session_hash",
                [SQLValue(at), .text(hash)])).isEmpty
        }
    }

    func deleteSessions(expiredBefore date: Date) async throws(StorageError) -> Int {
        try await engine.transaction { sql throws(StorageError) in
            try await sql.execute("DELETE FROM dashboard_sessions WHERE expires_at < ? RETURNING session_hash", [SQLValue(date)]).count
        }
    }
}
