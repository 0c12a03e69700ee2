import Foundation

/// `POST /v1/keys`: a new key for the app, shown once in the answer.
public struct CreateKeyRequest: Codable, Hashable, Sendable {
    /// `app` (safe to ship in the app binary) or `secret` (a backend's).
    public var kind: KeyKind
    public var name: String?
    /// A secret key's scope: `admin` (everything; the default), `support` (reads, and changes to one
    /// subscriber) or `viewer` (reads only).
    public var scope: String?

    public init(kind: KeyKind, name: String? = nil, scope: String? = nil) {
        self.kind = kind
        self.name = name
        self.scope = scope
    }
}
