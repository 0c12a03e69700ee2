/// What a person signed in to the dashboard may do (docs/dashboard.md, "Accounts"). Each role reaches
/// what the one below it does, and more: the same ladder as a secret key's scope, with `owner` above
/// `admin` for the accounts themselves.
public enum DashboardRole: String, Hashable, Sendable, CaseIterable, Comparable {
    /// Everything, and the people: invitations, roles, disabling an account.
    case owner
    /// Everything of every app: keys, webhooks, experiments, imports.
    case admin
    /// Reads, and changes to one subscriber (refresh from Apple, extend a renewal, grants): a support agent's.
    case support
    /// Reads only: an analyst's.
    case viewer

    /// The secret-key scope whose routes the role reaches (owner: admin's, and the accounts).
    public var scope: StoredKey.Scope {
        switch self {
        case .owner, .admin: .admin
        case .support: .support
        case .viewer: .viewer
        }
    }

    private var rank: Int {
        switch self {
        case .viewer: 0
        case .support: 1
        case .admin: 2
        case .owner: 3
        }
    }

    public static func < (lhs: DashboardRole, rhs: DashboardRole) -> Bool { lhs.rank < rhs.rank }
}
