import Foundation

/// The dashboard's accounts and invitations in the ledger's database (schema 30), over ``SQLEngine``.
final class SQLDashboardAccountStore: DashboardAccountStore {
    let engine: any SQLEngine

    init(engine: any SQLEngine) {
        self.engine = engine
    }

    func insertInvitation(hash: String, _ invitation: DashboardInvitation) async throws(StorageError) {
        try await engine.transaction { sql throws(StorageError) in
            _ = try await sql.execute(
                """
                INSERT INTO dashboard_invitations (token_hash, email, role, invited_by, created_at, expires_at, accepted_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [.text(hash), .text(invitation.email), .text(invitation.role.rawValue), .text(invitation.invitedBy), SQLValue(invitation.createdAt),
                 SQLValue(invitation.expiresAt), SQLValue(invitation.acceptedAt)])
        }
    }

    func invitation(hash: String) async throws(StorageError) -> DashboardInvitation? {
        try await engine.read { sql throws(StorageError) in
            try await sql.execute("SELECT * FROM dashboard_invitations WHERE token_hash = ?", [.text(hash)]).first.map(Self.invitation)
        }
    }

    func acceptInvitation(hash: String, account: DashboardAccount, at: Date) async throws(StorageError) -> DashboardAccount? {
        try await engine.transaction { sql throws(StorageError) in
            // Taken by the first to answer, on whichever instance.
            guard let row = try await sql.execute(
                "UPDATE dashboard_invitations SET accepted_at = ? WHERE token_hash = ? AND accepted_at IS NULL AND expires_at > ? RETURNING *",
                [SQLValue(at), .text(hash), SQLValue(at)]).first
            else { return nil }
            let invitation = try Self.invitation(row)
            if var existing = try await sql.execute("SELECT * FROM dashboard_accounts WHERE email = ?", [.text(invitation.email)]).first.map(Self.account) {
                existing.role = invitation.role
                existing.passwordHash = account.passwordHash ?? existing.passwordHash
                existing.name = account.name ?? existing.name
                existing.disabledAt = nil
                try await Self.write(existing, sql)
                return existing
            }
            var created = account
            created.email = invitation.email
            created.role = invitation.role
            _ = try await sql.execute(
                """
                INSERT INTO dashboard_accounts (id, email, name, role, password_hash, created_at, disabled_at, failed_sign_ins, locked_until, last_sign_in_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [.text(created.id), .text(created.email), SQLValue(created.name), .text(created.role.rawValue), SQLValue(created.passwordHash),
                 SQLValue(created.createdAt), SQLValue(created.disabledAt), .integer(Int64(created.failedSignIns)), SQLValue(created.lockedUntil),
                 SQLValue(created.lastSignInAt)])
            return created
        }
    }

    func account(id: String) async throws(StorageError) -> DashboardAccount? {
        try await engine.read { sql throws(StorageError) in
            try await sql.execute("SELECT * FROM dashboard_accounts WHERE id = ?", [.text(id)]).first.map(Self.account)
        }
    }

    func account(email: String) async throws(StorageError) -> DashboardAccount? {
        try await engine.read { sql throws(StorageError) in
            try await sql.execute("SELECT * FROM dashboard_accounts WHERE email = ?", [.text(email)]).first.map(Self.account)
        }
    }

    func accounts() async throws(StorageError) -> [DashboardAccount] {
        try await engine.read { sql throws(StorageError) in
            try await sql.execute("SELECT * FROM dashboard_accounts ORDER BY created_at, id", []).map(Self.account)
        }
    }

    func updateAccount(_ account: DashboardAccount) async throws(StorageError) -> DashboardAccount? {
        try await engine.transaction { sql throws(StorageError) in
            guard let before = try await sql.execute("SELECT * FROM dashboard_accounts WHERE id = ?", [.text(account.id)]).first.map(Self.account)
            else { return nil }
            try await Self.write(account, sql)
            return before
        }
    }

    func recordSignIn(accountID: String, succeeded: Bool, at: Date, lockout: SignInLockout) async throws(StorageError) -> DashboardAccount? {
        try await engine.transaction { sql throws(StorageError) in
            // Counted in the database, so failures on every instance add up.
            let rows = succeeded
                ? try await sql.execute(
                    "UPDATE dashboard_accounts SET failed_sign_ins = 0, locked_until = NULL, last_sign_in_at = ? WHERE id = ? RETURNING *",
                    [SQLValue(at), .text(accountID)])
                : try await sql.execute(
                    "UPDATE dashboard_accounts SET failed_sign_ins = failed_sign_ins + 1 WHERE id = ? RETURNING *", [.text(accountID)])
            guard var account = try rows.first.map(Self.account) else { return nil }
            if !succeeded, let until = lockout.lockedUntil(failures: account.failedSignIns, now: at) {
                _ = try await sql.execute("UPDATE dashboard_accounts SET locked_until = ? WHERE id = ?", [SQLValue(until), .text(accountID)])
                account.lockedUntil = until
            }
            return account
        }
    }

    private static func write(_ account: DashboardAccount, _ sql: any SQLSession) async throws(StorageError) {
        _ = try await sql.execute(
            "UPDATE dashboard_accounts SET name = ?, role = ?, password_hash = ?, disabled_at = ? WHERE id = ?",
            [SQLValue(account.name), .text(account.role.rawValue), SQLValue(account.passwordHash), SQLValue(account.disabledAt), .text(account.id)])
    }

    private static func invitation(_ row: SQLRow) throws(StorageError) -> DashboardInvitation {
        guard let email = try row.nullableText("email"), let role = try row.nullableText("role").flatMap(DashboardRole.init(rawValue:)),
            let invitedBy = try row.nullableText("invited_by"), let created = try row.nullableDate("created_at"), let expires = try row.nullableDate("expires_at")
        else { throw StorageError(.corruptRecord, "a dashboard invitation's row is incomplete") }
        return DashboardInvitation(
            email: email, role: role, invitedBy: invitedBy, createdAt: created, expiresAt: expires, acceptedAt: try row.nullableDate("accepted_at"))
    }

    private static func account(_ row: SQLRow) throws(StorageError) -> DashboardAccount {
        guard let id = try row.nullableText("id"), let email = try row.nullableText("email"),
            let role = try row.nullableText("role").flatMap(DashboardRole.init(rawValue:)), let created = try row.nullableDate("created_at"),
            let failures = try row.nullableInteger("failed_sign_ins"), let failed = Int(exactly: failures)
        else { throw StorageError(.corruptRecord, "a dashboard account's row is incomplete") }
        return DashboardAccount(
            id: id, email: email, name: try row.nullableText("name"), role: role, passwordHash: try row.nullableText("password_hash"), createdAt: created,
            disabledAt: try row.nullableDate("disabled_at"), failedSignIns: failed, lockedUntil: try row.nullableDate("locked_until"),
            lastSignInAt: try row.nullableDate("last_sign_in_at"))
    }
}
