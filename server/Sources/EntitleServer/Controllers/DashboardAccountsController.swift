import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The dashboard's doors and people (docs/dashboard.md, "Accounts"): sign-in with an email and password
/// (or a server-wide secret key, as an owner), sign-out, an invitation's page, and `/dashboard/accounts`
/// for owners — invitations, roles, disabling.
struct DashboardAccountsController {
    let apps: ServedApps
    let keys: APIKeys
    let sessions: DashboardSessions
    let accounts: DashboardAccounts

    func addRoutes(to router: Router<EntitleRequestContext>) {
        let (apps, keys, sessions, accounts) = (apps, keys, sessions, accounts)
        let now = apps.primary.context.now

        router.get("/dashboard/login") { _, _ -> Response in
            DashboardController.html(SignInPage.render(error: nil))
        }
        // Every state-changing dashboard request comes from the dashboard's own pages.
        let doors = router.group("/dashboard").add(middleware: OffEventLoopMiddleware()).add(middleware: SameOriginMiddleware())
        doors.post("login") { request, context -> Response in
            let form = DashboardController.form(String(buffer: try await request.body.collect(upTo: 16_384)))
            let address = ClientAddress.of(request, peer: context.peerAddress)
            do {
                try accounts.throttle.check(address, now: now())
                if let key = form["key"] {
                    guard keys.identify(key, appUserID: nil) == .secret else {
                        throw ServiceError(.signInRefused, "That is not a secret key of this server.")
                    }
                    return try await Self.signedIn(request, cookie: try await sessions.issue(now: now()))
                }
                let person = try await accounts.openSession(email: form["email"] ?? "", password: form["password"] ?? "")
                context.logger.info("dashboard sign-in", metadata: ["account.id": "\(person.accountID)"])
                return try await Self.signedIn(request, cookie: person.cookie)
            } catch let error as ServiceError where [.signInRefused, .signInLocked, .busy].contains(error.code) {
                if error.code != .busy { accounts.throttle.failed(address, now: now()) }
                context.logger.notice("dashboard sign-in refused", metadata: ["error.code": "\(error.code)"])
                return DashboardController.html(SignInPage.render(error: error.message), status: HTTPStatusTable.status(for: error.code))
            }
        }
        doors.post("logout") { request, _ -> Response in
            // Revoked in the database: the cookie is refused everywhere from now on, wherever a copy of it is.
            if let cookie = request.cookies[DashboardSessions.cookieName]?.value {
                try await sessions.revoke(cookie, now: now())
            }
            var response = DashboardController.redirect("/dashboard/login")
            response.headers[.setCookie] = "\(DashboardSessions.cookieName)=; Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=0"
                + DashboardController.secureAttribute(request)
            return response
        }
        router.get("/dashboard/invitation") { request, _ -> Response in
            let token = DashboardController.query(request, "token") ?? ""
            return try await DashboardController.page {
                SignInPage.invitation(try await accounts.invitation(token: token), token: token, error: nil)
            }
        }
        doors.post("invitation") { request, context -> Response in
            let form = DashboardController.form(String(buffer: try await request.body.collect(upTo: 16_384)))
            let token = form["token"] ?? ""
            let address = ClientAddress.of(request, peer: context.peerAddress)
            do {
                try accounts.throttle.check(address, now: now())
                let person = try await accounts.acceptAndOpenSession(token: token, name: form["name"], password: form["password"] ?? "")
                context.logger.info("dashboard invitation accepted", metadata: ["account.id": "\(person.accountID)", "account.role": "\(person.role)"])
                return try await Self.signedIn(request, cookie: person.cookie)
            } catch let error as ServiceError where error.code == .invalidRequest {
                return try await DashboardController.page {
                    SignInPage.invitation(try await accounts.invitation(token: token), token: token, error: error.message)
                }
            } catch let error as ServiceError {
                if [.invitationClosed, .signInLocked].contains(error.code) { accounts.throttle.failed(address, now: now()) }
                return try await DashboardController.page { throw error }
            }
        }

        // The people, for owners; changes recorded in the first app's audit log (accounts are server-wide).
        let primary = apps.primary
        let people = router.group("/dashboard/accounts").add(middleware: OffEventLoopMiddleware()).add(middleware: SameOriginMiddleware())
            .add(middleware: DashboardSessionMiddleware(sessions: sessions, accounts: accounts, now: now))
            .add(middleware: PrimaryAppMiddleware(app: primary))
            .add(middleware: AuditMiddleware())
        people.get { _, _ -> Response in
            try await DashboardController.page { AccountsPage.render(accounts: try await accounts.accounts(), invited: nil, now: now()) }
        }
        people.post("invitations") { request, context -> Response in
            let form = DashboardController.form(String(buffer: try await request.body.collect(upTo: 16_384)))
            return try await DashboardController.page {
                let invitation = try await accounts.invite(email: form["email"] ?? "", roleNamed: form["role"] ?? "", invitedBy: context.actor ?? "dashboard")
                AuditChange.note(before: nil, after: "invited \(invitation.email) as \(invitation.role)")
                let invited = AccountsPage.Invited(
                    email: invitation.email, role: invitation.role, link: Self.invitationLink(request, token: invitation.token), expiresAt: invitation.expiresAt)
                return AccountsPage.render(accounts: try await accounts.accounts(), invited: invited, now: now())
            }
        }
        people.post("{accountID}/role") { request, context -> Response in
            let id = try context.parameters.require("accountID")
            let form = DashboardController.form(String(buffer: try await request.body.collect(upTo: 16_384)))
            return try await DashboardController.action(apps, context) {
                let change = try await accounts.changeRole(id: id, roleNamed: form["role"] ?? "")
                AuditChange.note(before: change.before, after: change.after)
                return "/dashboard/accounts"
            }
        }
        people.post("{accountID}/disable") { _, context -> Response in
            let id = try context.parameters.require("accountID")
            return try await DashboardController.action(apps, context) {
                let change = try await accounts.disableAccount(id: id)
                AuditChange.note(before: change.before, after: change.after)
                return "/dashboard/accounts"
            }
        }
    }

    /// The session cookie set, then the overview.
    static func signedIn(_ request: Request, cookie: String) async throws -> Response {
        var response = DashboardController.redirect("/dashboard")
        response.headers[.setCookie] =
            "\(DashboardSessions.cookieName)=\(cookie); Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=\(Int(DashboardSessions.lifetime))"
            + DashboardController.secureAttribute(request)
        return response
    }

    /// The invitation's link on the host the owner reached the dashboard at.
    static func invitationLink(_ request: Request, token: String) -> String {
        let scheme = DashboardController.secureAttribute(request).isEmpty ? "http" : "https"
        let host = request.head.authority ?? "localhost"
        return "\(scheme)://\(host)/dashboard/invitation?token=\(token)"
    }

    /// Sets the request's app to the first one: where server-wide changes are audited.
    struct PrimaryAppMiddleware: RouterMiddleware {
        typealias Context = EntitleRequestContext
        let app: AppServices

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            var context = context
            context.app = app
            return try await next(request, context)
        }
    }
}
