import Foundation

/// The dashboard's sessions in the ledger's database, written once over ``SQLEngine``: a secret key's in
/// `dashboard_sessions`, a person's in `dashboard_account_sessions` (schema 30) — a binary of the schema
/// before, which knows no accounts, finds no person's session and asks them to sign in, rather than taking
/// it for a key's (docs/operations.md, "Upgrading").
final class SQLDashboardSessionStore: DashboardSessionStore {
    let engine: any SQLEngine

    init(engine: any SQLEngine) {
        self.engine = engine
    }

    func insertSession(hash: String, _ session: DashboardSession) async throws(StorageError) {
        try await engine.transaction { sql throws(StorageError) in
            if let account = session.accountID {
                _ = try await sql.execute(
                    "INSERT INTO dashboard_account_sessions (session_hash, account_id, created_at, expires_at, revoked_at) VALUES (?, ?, ?, ?, ?)",
                    [.text(hash), .text(account), SQLValue(session.createdAt), SQLValue(session.expiresAt), SQLValue(session.revokedAt)])
            } else {
                _ = try await sql.execute(
                    "INSERT INTO dashboard_sessions (session_hash, created_at, expires_at, revoked_at) VALUES (?, ?, ?, ?)",
                    [.text(hash), SQLValue(session.createdAt), SQLValue(session.expiresAt), SQLValue(session.revokedAt)])
            }
        }
    }

    func session(hash: String) async throws(StorageError) -> DashboardSession? {
        try await engine.read { sql throws(StorageError) in
            let row: SQLRow
            if let keys = try await sql.execute("SELECT * FROM dashboard_sessions WHERE session_hash = ?", [.text(hash)]).first {
                row = keys
            } else if let people = try await sql.execute("SELECT * FROM dashboard_account_sessions WHERE session_hash = ?", [.text(hash)]).first {
                row = people
            } else {
                return nil
            }
            guard let created = try row.nullableDate("created_at"), let expires = try row.nullableDate("expires_at") else {
                throw StorageError(.corruptRecord, "a dashboard session's row is incomplete")
            }
            return DashboardSession(
                createdAt: created, expiresAt: expires, revokedAt: try row.nullableDate("revoked_at"),
                accountID: row.has("account_id") ? try row.nullableText("account_id") : nil)
        }
    }

    func revokeSession(hash: String, at: Date) async throws(StorageError) -> Bool {
        try await engine.transaction { sql throws(StorageError) in
            var revoked = false
            for table in ["dashboard_sessions", "dashboard_account_sessions"] {
                revoked = !(try await sql.execute(
                    "UPDATE \(table) SET revoked_at = ? WHERE session_hash = ? AND revoked_at IS NULL RETURNING session_hash",
                    [SQLValue(at), .text(hash)])).isEmpty || revoked
            }
            return revoked
        }
    }

    func revokeSessions(accountID: String, at: Date) async throws(StorageError) -> Int {
        try await engine.transaction { sql throws(StorageError) in
            try await sql.execute(
                "UPDATE dashboard_account_sessions SET revoked_at = ? WHERE account_id = ? AND revoked_at IS NULL RETURNING session_hash",
                [SQLValue(at), .text(accountID)]).count
        }
    }

    func deleteSessions(expiredBefore date: Date) async throws(StorageError) -> Int {
        try await engine.transaction { sql throws(StorageError) in
            var deleted = 0
            for table in ["dashboard_sessions", "dashboard_account_sessions"] {
                deleted += try await sql.execute("DELETE FROM \(table) WHERE expires_at < ? RETURNING session_hash", [SQLValue(date)]).count
            }
            return deleted
        }
    }
}
