import Crypto
import EntitleStorage
import Foundation

/// Dashboard sign-in: a person's password or passkey, or an operator's secret key, is exchanged for a random cookie, kept in the ledger's
/// database by its SHA-256 (never the cookie itself) with its expiry. Every instance sharing the
/// database accepts it until it expires or its holder signs out, which revokes it everywhere at once.
struct DashboardSessions: Sendable {
    static let cookieName = "entitle_session"
    static let lifetime: TimeInterval = 12 * 3600
    /// Cookies are `ds_` and 32 random bytes, base64url: anything longer is not one.
    static let maximumCookieLength = 64
    let store: any DashboardSessionStore

    /// A new session cookie value for `accountID` (`nil`: a secret key's), valid until `now` + ``lifetime``.
    /// Expired sessions are forgotten on the way.
    func issue(now: Date, accountID: String? = nil) async throws(ServiceError) -> String {
        let value = "ds_" + Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64URL
        do {
            try await store.deleteSessions(expiredBefore: now)
            try await store.insertSession(hash: SecretDigest.of(value), DashboardSession(createdAt: now, expiresAt: now.addingTimeInterval(Self.lifetime), accountID: accountID))
        } catch {
            throw ServiceError(error)
        }
        return value
    }

    /// The live session whose cookie is `value` at `now`, or `nil`.
    func session(_ value: String, now: Date) async throws(ServiceError) -> DashboardSession? {
        guard value.hasPrefix("ds_"), value.utf8.count <= Self.maximumCookieLength else { return nil }
        do {
            return try await store.session(hash: SecretDigest.of(value)).flatMap { $0.isLive(at: now) ? $0 : nil }
        } catch {
            throw ServiceError(error)
        }
    }

    /// Signs the session out everywhere.
    func revoke(_ value: String, now: Date) async throws(ServiceError) {
        guard value.hasPrefix("ds_"), value.utf8.count <= Self.maximumCookieLength else { return }
        do {
            try await store.revokeSession(hash: SecretDigest.of(value), at: now)
        } catch {
            throw ServiceError(error)
        }
    }
}
