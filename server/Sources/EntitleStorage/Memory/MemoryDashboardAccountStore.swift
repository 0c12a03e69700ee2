import Foundation

/// The dashboard's accounts and invitations (server-wide) in a ``MemoryDatabase`` (``DashboardAccountStore``).
struct MemoryDashboardAccountStore: DashboardAccountStore {
    let database: MemoryDatabase

    func insertInvitation(hash: String, _ invitation: DashboardInvitation) async throws(StorageError) {
        try database.transaction { state throws(StorageError) in
            guard state.dashboardInvitations[hash] == nil else { throw StorageError(.queryFailed, "an invitation with the same hash exists") }
            var stored = invitation
            stored.createdAt = invitation.createdAt.storedPrecision
            stored.expiresAt = invitation.expiresAt.storedPrecision
            stored.acceptedAt = invitation.acceptedAt?.storedPrecision
            state.dashboardInvitations[hash] = stored
        }
    }

    func invitation(hash: String) async throws(StorageError) -> DashboardInvitation? {
        database.transaction { state in state.dashboardInvitations[hash] }
    }

    func acceptInvitation(hash: String, account: DashboardAccount, at: Date) async throws(StorageError) -> DashboardAccount? {
        try database.transaction { state throws(StorageError) in
            guard let invitation = state.dashboardInvitations[hash], invitation.acceptedAt == nil, at.storedPrecision < invitation.expiresAt else { return nil }
            state.dashboardInvitations[hash]?.acceptedAt = at.storedPrecision
            if var existing = state.dashboardAccounts.values.first(where: { $0.email == invitation.email }) {
                existing.role = invitation.role
                existing.passwordHash = account.passwordHash ?? existing.passwordHash
                existing.name = account.name ?? existing.name
                existing.disabledAt = nil
                state.dashboardAccounts[existing.id] = existing
                return existing
            }
            guard state.dashboardAccounts[account.id] == nil else { throw StorageError(.queryFailed, "an account with the same ID exists") }
            var created = Self.stored(account)
            created.email = invitation.email
            created.role = invitation.role
            state.dashboardAccounts[created.id] = created
            return created
        }
    }

    func account(id: String) async throws(StorageError) -> DashboardAccount? {
        database.transaction { state in state.dashboardAccounts[id] }
    }

    func account(email: String) async throws(StorageError) -> DashboardAccount? {
        database.transaction { state in state.dashboardAccounts.values.first { $0.email == email } }
    }

    func accounts() async throws(StorageError) -> [DashboardAccount] {
        database.transaction { state in state.dashboardAccounts.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) } }
    }

    func updateAccount(_ account: DashboardAccount) async throws(StorageError) -> DashboardAccount? {
        database.transaction { state in
            guard let before = state.dashboardAccounts[account.id] else { return nil }
            var after = before
            after.name = account.name
            after.role = account.role
            after.passwordHash = account.passwordHash
            after.disabledAt = account.disabledAt?.storedPrecision
            state.dashboardAccounts[account.id] = after
            return before
        }
    }

    func recordSignIn(accountID: String, succeeded: Bool, at: Date, lockout: SignInLockout) async throws(StorageError) -> DashboardAccount? {
        database.transaction { state in
            guard var account = state.dashboardAccounts[accountID] else { return nil }
            if succeeded {
                account.failedSignIns = 0
                account.lockedUntil = nil
                account.lastSignInAt = at.storedPrecision
            } else {
                account.failedSignIns += 1
                if let until = lockout.lockedUntil(failures: account.failedSignIns, now: at) { account.lockedUntil = until.storedPrecision }
            }
            state.dashboardAccounts[accountID] = account
            return account
        }
    }

    private static func stored(_ account: DashboardAccount) -> DashboardAccount {
        var stored = account
        stored.createdAt = account.createdAt.storedPrecision
        stored.disabledAt = account.disabledAt?.storedPrecision
        stored.lockedUntil = account.lockedUntil?.storedPrecision
        stored.lastSignInAt = account.lastSignInAt?.storedPrecision
        return stored
    }
}
