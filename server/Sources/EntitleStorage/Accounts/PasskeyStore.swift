import Foundation

/// The dashboard accounts' passkeys and the WebAuthn challenges in flight, server-wide.
public protocol PasskeyStore: Sendable {
    func insertPasskey(_ passkey: DashboardPasskey) async throws(StorageError)
    /// The passkey of `credentialID` (base64url).
    func passkey(credentialID: String) async throws(StorageError) -> DashboardPasskey?
    /// The account's passkeys, oldest first.
    func passkeys(accountID: String) async throws(StorageError) -> [DashboardPasskey]
    /// Records a sign-in with the passkey: its new counter and when.
    func usePasskey(credentialID: String, signCount: UInt32, at: Date) async throws(StorageError)
    /// Removes one of the account's passkeys; whether there was one.
    @discardableResult
    func deletePasskey(credentialID: String, accountID: String) async throws(StorageError) -> Bool
    /// Stores a challenge under `hash` (SHA-256 hex of the challenge); forgets expired ones on the way.
    func insertChallenge(hash: String, _ challenge: DashboardChallenge, now: Date) async throws(StorageError)
    /// Takes the challenge (it is gone after, whoever asks): `nil` when unknown or taken already.
    func takeChallenge(hash: String) async throws(StorageError) -> DashboardChallenge?
}
