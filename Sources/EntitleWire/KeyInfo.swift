import Foundation

/// An API key as the admin API lists it: never the key itself, except once, in `key`, when created.
public struct KeyInfo: Codable, Hashable, Sendable {
    public var id: String
    public var app: String
    /// `app` or `secret`.
    public var kind: KeyKind
    public var name: String?
    /// The key's first characters, to recognise it.
    public var prefix: String
    public var createdAt: Date
    public var revokedAt: Date?
    /// The key, in the answer that created it only.
    public var key: String?
    /// `admin`, `support` or `viewer` (a secret key's; `admin` for an app key, whose kind bounds it).
    public var scope: String?

    public init(id: String, app: String, kind: KeyKind, name: String?, prefix: String, createdAt: Date, revokedAt: Date?, key: String? = nil) {
        self.id = id
        self.app = app
        self.kind = kind
        self.name = name
        self.prefix = prefix
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.key = key
    }
}
