import Foundation

/// The dashboard accounts' passkeys and WebAuthn challenges (server-wide) in a ``MemoryDatabase`` (``PasskeyStore``).
struct MemoryPasskeyStore: PasskeyStore {
    let database: MemoryDatabase

    func insertPasskey(_ passkey: DashboardPasskey) async throws(StorageError) {
        try database.transaction { state throws(StorageError) in
            guard state.passkeys[passkey.credentialID] == nil else { throw StorageError(.queryFailed, "a passkey with the same credential ID exists") }
            var stored = passkey
            stored.createdAt = passkey.createdAt.storedPrecision
            stored.lastUsedAt = passkey.lastUsedAt?.storedPrecision
            state.passkeys[passkey.credentialID] = stored
        }
    }

    func passkey(credentialID: String) async throws(StorageError) -> DashboardPasskey? {
        database.transaction { state in state.passkeys[credentialID] }
    }

    func passkeys(accountID: String) async throws(StorageError) -> [DashboardPasskey] {
        database.transaction { state in
            state.passkeys.values.filter { $0.accountID == accountID }.sorted { ($0.createdAt, $0.credentialID) < ($1.createdAt, $1.credentialID) }
        }
    }

    func usePasskey(credentialID: String, signCount: UInt32, at: Date) async throws(StorageError) {
        database.transaction { state in
            state.passkeys[credentialID]?.signCount = signCount
            state.passkeys[credentialID]?.lastUsedAt = at.storedPrecision
        }
    }

    func deletePasskey(credentialID: String, accountID: String) async throws(StorageError) -> Bool {
        database.transaction { state in
            guard state.passkeys[credentialID]?.accountID == accountID else { return false }
            state.passkeys[credentialID] = nil
            return true
        }
    }

    func insertChallenge(hash: String, _ challenge: DashboardChallenge, now: Date) async throws(StorageError) {
        try database.transaction { state throws(StorageError) in
            state.challenges = state.challenges.filter { !($0.value.expiresAt < now.storedPrecision) }
            guard state.challenges[hash] == nil else { throw StorageError(.queryFailed, "a challenge with the same hash exists") }
            var stored = challenge
            stored.expiresAt = challenge.expiresAt.storedPrecision
            state.challenges[hash] = stored
        }
    }

    func takeChallenge(hash: String) async throws(StorageError) -> DashboardChallenge? {
        database.transaction { state in state.challenges.removeValue(forKey: hash) }
    }
}
