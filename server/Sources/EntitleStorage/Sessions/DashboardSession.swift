import Foundation

/// A dashboard sign-in, kept by the SHA-256 of its cookie (never the cookie itself).
public struct DashboardSession: Hashable, Sendable {
    public var createdAt: Date
    public var expiresAt: Date
    /// Set by signing out: the cookie is refused from then on, on every instance.
    public var revokedAt: Date?
    /// The person signed in (a ``DashboardAccount``'s ID); `nil` for a sign-in with a server-wide secret key.
    public var accountID: String?

    public init(createdAt: Date, expiresAt: Date, revokedAt: Date? = nil, accountID: String? = nil) {
        self.accountID = accountID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
    }

    /// Whether the session still signs its holder in at `now`.
    public func isLive(at now: Date) -> Bool {
        revokedAt == nil && now < expiresAt
    }
}
