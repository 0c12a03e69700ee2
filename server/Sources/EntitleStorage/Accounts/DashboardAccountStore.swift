import Foundation

/// The dashboard's people, server-wide, in the ledger's database: accounts, their invitations, and the
/// bookkeeping of their sign-ins.
public protocol DashboardAccountStore: Sendable {
    /// Stores an invitation under `hash` (SHA-256 hex of its token).
    func insertInvitation(hash: String, _ invitation: DashboardInvitation) async throws(StorageError)
    /// The invitation whose token hashes to `hash`, open or not.
    func invitation(hash: String) async throws(StorageError) -> DashboardInvitation?
    /// Accepts the invitation at `at`, in one transaction: creates `account` (its email the invitation's),
    /// or gives the existing account of that email the invitation's role and, when `account` has one, its
    /// password hash. `nil` when the invitation is not open at `at` (taken, expired, unknown).
    func acceptInvitation(hash: String, account: DashboardAccount, at: Date) async throws(StorageError) -> DashboardAccount?
    /// The account `id`.
    func account(id: String) async throws(StorageError) -> DashboardAccount?
    /// The account of `email` (lowercased).
    func account(email: String) async throws(StorageError) -> DashboardAccount?
    /// Every account, oldest first.
    func accounts() async throws(StorageError) -> [DashboardAccount]
    /// Changes the account's role, name, password hash and disabled instant to `account`'s; returns the
    /// account as it was, or `nil` when there is none.
    func updateAccount(_ account: DashboardAccount) async throws(StorageError) -> DashboardAccount?
    /// Records a sign-in's outcome at `at`: success clears the failures and the lock; a failure counts one
    /// more, and locks the account as `lockout` says. Returns the account after.
    func recordSignIn(accountID: String, succeeded: Bool, at: Date, lockout: SignInLockout) async throws(StorageError) -> DashboardAccount?
}
