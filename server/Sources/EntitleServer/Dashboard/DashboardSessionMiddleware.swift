import EntitleStorage
import Foundation
import Hummingbird

/// Sends requests without a live session to the sign-in page; names who is signed in (a person's
/// account, looked up on every request so a disabled account or a lowered role takes effect at once, or
/// a secret key's session, an owner's), and refuses a route the role doesn't reach
/// (``DashboardRoleRule``) with a 403 page naming the role it needs.
struct DashboardSessionMiddleware: RouterMiddleware {
    typealias Context = EntitleRequestContext
    let sessions: DashboardSessions
    let accounts: DashboardAccounts
    let now: @Sendable () -> Date

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let cookie = request.cookies[DashboardSessions.cookieName]?.value,
            let session = try await sessions.session(cookie, now: now())
        else { return DashboardController.redirect("/dashboard/login") }
        var context = context
        let role: DashboardRole
        let who: String
        if let accountID = session.accountID {
            guard let account = try await accounts.activeAccount(id: accountID) else { return DashboardController.redirect("/dashboard/login") }
            (role, who) = (account.role, account.email)
            context.actor = "account:" + account.email
            context.dashboardAccountID = account.id
        } else {
            // Who, in the audit log: the key's session, by a fingerprint of its cookie (never the cookie).
            (role, who) = (.owner, "secret key")
            context.actor = "dashboard:" + AuthenticationFingerprint.of(cookie)
        }
        context.dashboardRole = role
        let route = context.endpointPath ?? request.uri.path
        return try await DashboardLayout.$signedIn.withValue((who: who, role: role.rawValue)) {
            guard DashboardRoleRule.allows(role, method: request.method, route: route) else {
                return try await DashboardController.page {
                    throw ServiceError(
                        .forbidden,
                        "your role (\(role.rawValue)) doesn't reach \(request.method.rawValue) \(route): it needs \(DashboardRoleRule.required(method: request.method, route: route).rawValue)")
                }
            }
            return try await next(request, context)
        }
    }
}
