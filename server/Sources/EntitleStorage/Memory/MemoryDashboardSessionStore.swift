import EntitleCore
import Foundation

/// The dashboard's sign-ins (server-wide) in a ``MemoryDatabase`` (``DashboardSessionStore``).
struct MemoryDashboardSessionStore: DashboardSessionStore {
    let database: MemoryDatabase

    func insertSession(hash: String, _ session: DashboardSession) async throws(StorageError) {
        try database.transaction { state throws(StorageError) in
            guard state.dashboardSessions[hash] == nil else { throw StorageError(.queryFailed, "a dashboard session with the same hash exists") }
            state.dashboardSessions[hash] = DashboardSession(
                createdAt: session.createdAt.storedPrecision, expiresAt: session.expiresAt.storedPrecision, revokedAt: session.revokedAt?.storedPrecision,
                accountID: session.accountID)
        }
    }

    func session(hash: String) async throws(StorageError) -> DashboardSession? {
        database.transaction { state in state.dashboardSessions[hash] }
    }

    func revokeSession(hash: String, at: Date) async throws(StorageError) -> Bool {
        database.transaction { state in
            guard state.dashboardSessions[hash] != nil, state.dashboardSessions[hash]?.revokedAt == nil else { return false }
            state.dashboardSessions[hash]?.revokedAt = at.storedPrecision
            return true
        }
    }

    func revokeSessions(accountID: String, at: Date) async throws(StorageError) -> Int {
        database.transaction { state in
            let live = state.dashboardSessions.filter { $0.value.accountID == accountID && $0.value.revokedAt == nil }.keys
            for hash in live { state.dashboardSessions[hash]?.revokedAt = at.storedPrecision }
            return live.count
        }
    }

    func deleteSessions(expiredBefore date: Date) async throws(StorageError) -> Int {
        database.transaction { state in
            let expired = state.dashboardSessions.filter { $0.value.expiresAt < date.storedPrecision }.keys
            for hash in expired { state.dashboardSessions[hash] = nil }
            return expired.count
        }
    }
}
