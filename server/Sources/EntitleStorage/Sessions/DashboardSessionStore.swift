import Foundation

/// The dashboard's sign-ins, server-wide, in the ledger's database: every instance sharing it accepts a
/// session until it expires or is signed out, and refuses it everywhere after.
public protocol DashboardSessionStore: Sendable {
    /// Stores a new session under `hash` (SHA-256 hex of its cookie).
    func insertSession(hash: String, _ session: DashboardSession) async throws(StorageError)
    /// The session whose cookie hashes to `hash`, live or not.
    func session(hash: String) async throws(StorageError) -> DashboardSession?
    /// Signs the session out at `at`; returns whether there was one to sign out.
    @discardableResult
    func revokeSession(hash: String, at: Date) async throws(StorageError) -> Bool
    /// Signs every session of the account out at `at` (its role changed, or it was disabled); returns how many.
    @discardableResult
    func revokeSessions(accountID: String, at: Date) async throws(StorageError) -> Int
    /// Forgets the sessions that expired before `date`; returns how many.
    @discardableResult
    func deleteSessions(expiredBefore date: Date) async throws(StorageError) -> Int
}
