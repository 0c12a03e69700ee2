import Crypto
import EntitleCore
import EntitleStorage
import Foundation
import NIOConcurrencyHelpers

/// The API keys kept (hashed) in the database: minted here, looked up by hash with a short cache, so a
/// key costs one query a few seconds rather than one per request, and a revocation reaches every
/// instance within ``cacheLifetime``.
public final class StoredKeys: Sendable {
    let store: any KeyStore
    let now: @Sendable () -> Date
    /// How long a lookup (found or not) is reused.
    public static let cacheLifetime: TimeInterval = 5
    private let cache = NIOLockedValueBox<[String: (key: StoredKey?, at: Date)]>([:])

    public init(store: any KeyStore, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.now = now
    }

    /// A new key of `kind` for `app`: stored hashed, returned once. App keys start `ak_`, secret keys `sk_`.
    public func create(
        app: BundleID, kind: StoredKey.Kind, name: String?, scope: StoredKey.Scope = .admin
    ) async throws(StorageError) -> (key: String, stored: StoredKey) {
        let key = (kind == .app ? "ak_" : "sk_") + Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64URL
        let id = "key_" + Data(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }).base64URL.prefix(16)
        let stored = StoredKey(
            id: String(id), app: app, kind: kind, name: name, prefix: String(key.prefix(10)), createdAt: now(), revokedAt: nil,
            scope: kind == .app ? .admin : scope)
        try await store.insertKey(stored, hash: SecretDigest.of(key))
        return (key, stored)
    }

    /// What the keys API and the dashboard create: a key of the kind named `kind` (`app` or `secret`)
    /// with an optional name of 1 to 100 characters; the key itself is in the answer, once.
    func create(app: BundleID, kindNamed kind: String, name: String?, scopeNamed scopeName: String? = nil) async throws(ServiceError) -> (key: String, stored: StoredKey) {
        guard let kind = StoredKey.Kind(rawValue: kind) else { throw ServiceError(.invalidRequest, "kind is app or secret") }
        guard let scope = StoredKey.Scope(rawValue: scopeName ?? "admin") else { throw ServiceError(.invalidRequest, "scope is admin, support or viewer") }
        if kind == .app, scopeName != nil { throw ServiceError(.invalidRequest, "a scope is a secret key's; an app key reaches its app's subscribers") }
        if let name, name.isEmpty || name.count > 100 { throw ServiceError(.invalidRequest, "a key's name is 1 to 100 characters") }
        do {
            return try await create(app: app, kind: kind, name: name, scope: scope)
        } catch {
            throw ServiceError(error)
        }
    }

    /// The app's keys, revoked ones included (never the keys themselves).
    func keys(app: BundleID) async throws(ServiceError) -> [StoredKey] {
        do {
            return try await store.keys(app: app)
        } catch {
            throw ServiceError(error)
        }
    }

    /// Revokes the app's key `id` at `at`: refused everywhere within ``cacheLifetime``.
    func revoke(id: String, app: BundleID, at: Date) async throws(ServiceError) -> StoredKey {
        let revoked: StoredKey?
        do {
            revoked = try await store.revokeKey(id: id, app: app, at: at)
        } catch {
            throw ServiceError(error)
        }
        guard let revoked else { throw ServiceError(.notFound, "no key \(id) for this app") }
        return revoked
    }

    /// The active stored key `key` is, if any.
    func identify(_ key: String) async throws(StorageError) -> StoredKey? {
        let hash = SecretDigest.of(key)
        let at = now()
        if let cached = cache.withLockedValue({ $0[hash] }), at.timeIntervalSince(cached.at) < Self.cacheLifetime, at >= cached.at {
            return cached.key.flatMap { $0.isActive(at: at) ? $0 : nil }
        }
        let found = try await store.key(hash: hash)
        cache.withLockedValue { cache in
            if cache.count > 10_000 { cache.removeAll() }
            cache[hash] = (found, at)
        }
        return found.flatMap { $0.isActive(at: at) ? $0 : nil }
    }
}
