import Foundation

/// A person who signs in to the dashboard: their email, role and password hash (never the password),
/// and the state of their sign-ins, which every instance sharing the database sees alike.
public struct DashboardAccount: Hashable, Sendable {
    /// A public identifier (`acct_…`).
    public var id: String
    /// Lowercased; one account per address.
    public var email: String
    public var name: String?
    public var role: DashboardRole
    /// The password's hash in PHC form (`$scrypt$ln=…`); `nil` for an account that signs in with passkeys only.
    public var passwordHash: String?
    public var createdAt: Date
    /// Set when an owner disables the account: it signs in no more, and its sessions are refused.
    public var disabledAt: Date?
    /// Failed sign-ins since the last one that succeeded.
    public var failedSignIns: Int
    /// Until when sign-in is refused after too many failures.
    public var lockedUntil: Date?
    public var lastSignInAt: Date?

    public init(
        id: String, email: String, name: String?, role: DashboardRole, passwordHash: String?, createdAt: Date, disabledAt: Date? = nil,
        failedSignIns: Int = 0, lockedUntil: Date? = nil, lastSignInAt: Date? = nil
    ) {
        self.id = id
        self.email = email
        self.name = name
        self.role = role
        self.passwordHash = passwordHash
        self.createdAt = createdAt
        self.disabledAt = disabledAt
        self.failedSignIns = failedSignIns
        self.lockedUntil = lockedUntil
        self.lastSignInAt = lastSignInAt
    }

    /// Whether the account may act at `now`: not disabled.
    public func isActive(at now: Date) -> Bool { disabledAt.map { now < $0 } ?? true }
}
