import EntitleStorage
import HTTPTypes

/// Which role a dashboard route needs (docs/dashboard.md, "Accounts"): the API's scope rule
/// (``KeyScopeRule``) applied to the dashboard's route of the same shape — reads need `viewer`, changes
/// to one subscriber `support`, every other change `admin` — the people themselves `owner`, and one's own
/// page and passkeys (`/dashboard/me`) anyone signed in.
enum DashboardRoleRule {
    static func required(method: HTTPRequest.Method, route: String) -> DashboardRole {
        if route == "/dashboard/accounts" || route.hasPrefix("/dashboard/accounts/") { return .owner }
        // Everyone's own page and passkeys.
        if route == "/dashboard/me" || route.hasPrefix("/dashboard/me/") { return .viewer }
        let api = route.hasPrefix("/dashboard/") ? "/v1/" + route.dropFirst("/dashboard/".count) : route
        switch KeyScopeRule.required(method: method, route: api) {
        case .admin: return .admin
        case .support: return .support
        case .viewer: return .viewer
        }
    }

    /// Whether `role` reaches the route.
    static func allows(_ role: DashboardRole, method: HTTPRequest.Method, route: String) -> Bool {
        role >= required(method: method, route: route)
    }
}
