import Foundation

/// A WebAuthn challenge the server issued, kept by its SHA-256 until it is answered once or expires:
/// any instance sharing the database checks the answer, and no answer is accepted twice.
public struct DashboardChallenge: Hashable, Sendable {
    public enum Purpose: String, Hashable, Sendable {
        /// Adding a passkey to the signed-in account.
        case registration
        /// Signing in with a passkey.
        case authentication
    }

    public var purpose: Purpose
    /// The account registering a passkey; `nil` for a sign-in, which learns the account from the passkey.
    public var accountID: String?
    public var expiresAt: Date

    public init(purpose: Purpose, accountID: String?, expiresAt: Date) {
        self.purpose = purpose
        self.accountID = accountID
        self.expiresAt = expiresAt
    }
}
