import Foundation

/// `POST /v1/keys`: a new key for the app, shown once in the answer.
public struct CreateKeyRequest: Codable, Hashable, Sendable {
    /// `app` (safe to ship in the app binary) or `secret` (a backend's).
    public var kind: KeyKind
    public var name: String?

    public init(kind: KeyKind, name: String? = nil) {
        self.kind = kind
        self.name = name
    }
}
