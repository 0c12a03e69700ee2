import Foundation

/// An invitation to the dashboard, kept by the SHA-256 of its token (the link's secret, shown once).
/// Accepting it creates the account, or gives an existing one the invitation's role.
public struct DashboardInvitation: Hashable, Sendable {
    public var email: String
    public var role: DashboardRole
    /// Who invited: `account:<email>`, `cli`, or `dashboard:<fingerprint>` for a key's session.
    public var invitedBy: String
    public var createdAt: Date
    public var expiresAt: Date
    public var acceptedAt: Date?

    public init(email: String, role: DashboardRole, invitedBy: String, createdAt: Date, expiresAt: Date, acceptedAt: Date? = nil) {
        self.email = email
        self.role = role
        self.invitedBy = invitedBy
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.acceptedAt = acceptedAt
    }

    /// Whether the link still works at `now`: not accepted, not expired.
    public func isOpen(at now: Date) -> Bool { acceptedAt == nil && now < expiresAt }
}
