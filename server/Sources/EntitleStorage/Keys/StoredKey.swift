import EntitleCore
import Foundation

/// An API key kept in the database: only its SHA-256 hash, never the key.
public struct StoredKey: Hashable, Sendable {
    /// What a key may do.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// Safe to ship in the app binary: its app's subscribers only (read, create, submit Apple-signed
        /// data, usage, offerings).
        case app
        /// Everything for its app, from a backend: grants, overrides, households, analytics, keys.
        case secret
    }

    /// What a secret key reaches (docs/server.md, "Scopes"): an app key's is always `admin`, its kind bounds it.
    public enum Scope: String, Hashable, Sendable, CaseIterable {
        /// Everything of its app.
        case admin
        /// Reads, and changes to one subscriber (grants, overrides, households, their purchases): a
        /// support agent's.
        case support
        /// Reads only: an analyst's.
        case viewer
    }

    /// A public identifier (`key_…`), for listing and revoking; not the key.
    public var id: String
    /// The app (bundle ID) the key belongs to.
    public var app: BundleID
    public var kind: Kind
    public var name: String?
    /// The key's first characters, so an operator recognises it (`ak_3f9a…`).
    public var prefix: String
    public var createdAt: Date
    public var revokedAt: Date?
    public var scope: Scope = .admin

    public init(
        id: String, app: BundleID, kind: Kind, name: String?, prefix: String, createdAt: Date, revokedAt: Date?, scope: Scope = .admin
    ) {
        self.scope = scope
        self.id = id
        self.app = app
        self.kind = kind
        self.name = name
        self.prefix = prefix
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    public func isActive(at now: Date) -> Bool { revokedAt.map { now < $0 } ?? true }
}
