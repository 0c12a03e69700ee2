import Foundation

/// The dashboard accounts' passkeys and WebAuthn challenges in the ledger's database (schema 30).
final class SQLPasskeyStore: PasskeyStore {
    let engine: any SQLEngine

    init(engine: any SQLEngine) {
        self.engine = engine
    }

    func insertPasskey(_ passkey: DashboardPasskey) async throws(StorageError) {
        try await engine.transaction { sql throws(StorageError) in
            _ = try await sql.execute(
                """
                INSERT INTO dashboard_passkeys (credential_id, account_id, public_key, sign_count, name, created_at, last_used_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [.text(passkey.credentialID), .text(passkey.accountID), .text(passkey.publicKey.base64EncodedString()), .integer(Int64(passkey.signCount)),
                 SQLValue(passkey.name), SQLValue(passkey.createdAt), SQLValue(passkey.lastUsedAt)])
        }
    }

    func passkey(credentialID: String) async throws(StorageError) -> DashboardPasskey? {
        try await engine.read { sql throws(StorageError) in
            try await sql.execute("SELECT * FROM dashboard_passkeys WHERE credential_id = ?", [.text(credentialID)]).first.map(Self.passkey)
        }
    }

    func passkeys(accountID: String) async throws(StorageError) -> [DashboardPasskey] {
        try await engine.read { sql throws(StorageError) in
            try await sql.execute("SELECT * FROM dashboard_passkeys WHERE account_id = ? ORDER BY created_at, credential_id", [.text(accountID)])
                .map(Self.passkey)
        }
    }

    func usePasskey(credentialID: String, signCount: UInt32, at: Date) async throws(StorageError) {
        try await engine.transaction { sql throws(StorageError) in
            _ = try await sql.execute(
                "UPDATE dashboard_passkeys SET sign_count = ?, last_used_at = ? WHERE credential_id = ?",
                [.integer(Int64(signCount)), SQLValue(at), .text(credentialID)])
        }
    }

    func deletePasskey(credentialID: String, accountID: String) async throws(StorageError) -> Bool {
        try await engine.transaction { sql throws(StorageError) in
            !(try await sql.execute(
                "DELETE FROM dashboard_passkeys WHERE credential_id = ? AND account_id = ? RETURNING credential_id", [.text(credentialID), .text(accountID)]))
                .isEmpty
        }
    }

    func insertChallenge(hash: String, _ challenge: DashboardChallenge, now: Date) async throws(StorageError) {
        try await engine.transaction { sql throws(StorageError) in
            _ = try await sql.execute("DELETE FROM dashboard_challenges WHERE expires_at < ? RETURNING challenge_hash", [SQLValue(now)])
            _ = try await sql.execute(
                "INSERT INTO dashboard_challenges (challenge_hash, purpose, account_id, expires_at) VALUES (?, ?, ?, ?)",
                [.text(hash), .text(challenge.purpose.rawValue), SQLValue(challenge.accountID), SQLValue(challenge.expiresAt)])
        }
    }

    func takeChallenge(hash: String) async throws(StorageError) -> DashboardChallenge? {
        try await engine.transaction { sql throws(StorageError) in
            guard let row = try await sql.execute("DELETE FROM dashboard_challenges WHERE challenge_hash = ? RETURNING *", [.text(hash)]).first else {
                return nil
            }
            guard let purpose = try row.nullableText("purpose").flatMap(DashboardChallenge.Purpose.init(rawValue:)),
                let expires = try row.nullableDate("expires_at")
            else { throw StorageError(.corruptRecord, "a WebAuthn challenge's row is incomplete") }
            return DashboardChallenge(purpose: purpose, accountID: try row.nullableText("account_id"), expiresAt: expires)
        }
    }

    private static func passkey(_ row: SQLRow) throws(StorageError) -> DashboardPasskey {
        guard let id = try row.nullableText("credential_id"), let account = try row.nullableText("account_id"),
            let key = try row.nullableText("public_key").flatMap({ Data(base64Encoded: $0) }), let count = try row.nullableInteger("sign_count"),
            let signCount = UInt32(exactly: count), let created = try row.nullableDate("created_at")
        else { throw StorageError(.corruptRecord, "a passkey's row is incomplete") }
        return DashboardPasskey(
            credentialID: id, accountID: account, publicKey: key, signCount: signCount, name: try row.nullableText("name"), createdAt: created,
            lastUsedAt: try row.nullableDate("last_used_at"))
    }
}
