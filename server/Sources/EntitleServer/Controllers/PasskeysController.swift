import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// Passkeys in the dashboard (docs/analytics.md, "Accounts"): the script, sign-in with a passkey, and the
/// person's own page (`/dashboard/me`) where they add and remove theirs. The ceremonies' JSON is checked by
/// ``Passkeys``; the relying party is the host the browser reached.
struct PasskeysController {
    let apps: ServedApps
    let sessions: DashboardSessions
    let accounts: DashboardAccounts
    let passkeys: Passkeys

    func addRoutes(to router: Router<EntitleRequestContext>) {
        let (accounts, passkeys) = (accounts, passkeys)
        let now = apps.primary.context.now

        router.get("/dashboard/passkeys.js") { _, _ -> Response in
            var headers = HTTPFields()
            headers[.contentType] = "text/javascript; charset=utf-8"
            headers[.cacheControl] = "no-cache"
            headers[.xContentTypeOptions] = "nosniff"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: PasskeysScript.source)))
        }
        let doors = router.group("/dashboard/login/passkey").add(middleware: OffEventLoopMiddleware()).add(middleware: SameOriginMiddleware())
        doors.post("options") { request, _ -> Response in
            try Self.ceremony(try await passkeys.authenticationOptions(rp: try Self.relyingParty(request)))
        }
        doors.post { request, context -> Response in
            let answer = try await request.decode(as: Passkeys.AuthenticationResponse.self, context: context)
            let address = ClientAddress.of(request, peer: context.peerAddress)
            let person: DashboardAccounts.SignedIn
            do {
                try accounts.throttle.check(address, now: now())
                person = try await passkeys.authenticate(answer, rp: try Self.relyingParty(request))
            } catch let error as ServiceError {
                if [ServiceError.Code.passkeyRefused, .signInLocked].contains(error.code) { accounts.throttle.failed(address, now: now()) }
                throw error
            }
            context.logger.info("dashboard sign-in with a passkey", metadata: ["account.id": "\(person.accountID)"])
            var response = try Self.ceremony(["redirect": "/dashboard"])
            response.headers[.setCookie] = try await DashboardAccountsController.signedIn(request, cookie: person.cookie).headers[.setCookie]
            return response
        }

        let own = router.group("/dashboard/me").add(middleware: OffEventLoopMiddleware()).add(middleware: SameOriginMiddleware())
            .add(middleware: DashboardSessionMiddleware(sessions: sessions, accounts: accounts, now: now))
            .add(middleware: DashboardAccountsController.PrimaryAppMiddleware(app: apps.primary))
            .add(middleware: AuditMiddleware())
        own.get { _, context -> Response in
            try await DashboardController.page {
                guard let id = context.dashboardAccountID else { return MePage.render(passkeys: nil) }
                return MePage.render(passkeys: try await passkeys.passkeys(accountID: id))
            }
        }
        own.post("passkeys/options") { request, context -> Response in
            try Self.ceremony(try await passkeys.registrationOptions(accountID: try Self.person(context), rp: try Self.relyingParty(request)))
        }
        own.post("passkeys") { request, context -> Response in
            let answer = try await request.decode(as: Passkeys.RegistrationResponse.self, context: context)
            let added = try await passkeys.register(accountID: try Self.person(context), answer, rp: try Self.relyingParty(request))
            AuditChange.note(before: nil, after: "passkey \(added.label) added")
            return try Self.ceremony(["credentialID": added.credentialID], status: .created)
        }
        own.post("passkeys/{credentialID}/remove") { _, context -> Response in
            let id = try context.parameters.require("credentialID")
            try await passkeys.remove(credentialID: id, accountID: try Self.person(context))
            AuditChange.note(before: "passkey \(id)", after: nil)
            return DashboardController.redirect("/dashboard/me")
        }
    }

    /// The signed-in person's account: a secret key's session has none.
    static func person(_ context: EntitleRequestContext) throws(ServiceError) -> String {
        guard let id = context.dashboardAccountID else {
            throw ServiceError(.forbidden, "passkeys are a person's: sign in with your email to add one")
        }
        return id
    }

    /// The dashboard's host as the browser reached it: `id` without the port, `origin` with the scheme.
    static func relyingParty(_ request: Request) throws(ServiceError) -> Passkeys.RelyingParty {
        guard let authority = request.head.authority, !authority.isEmpty, authority.utf8.count <= 255 else {
            throw ServiceError(.invalidRequest, "the request names no host")
        }
        let host = authority.hasPrefix("[") ? String(authority.prefix { $0 != "]" }) + "]" : String(authority.split(separator: ":").first ?? "")
        let scheme = DashboardController.secureAttribute(request).isEmpty ? "http" : "https"
        return Passkeys.RelyingParty(id: host, origin: "\(scheme)://\(authority)")
    }

    /// A ceremony's JSON answer: never cached (it carries a one-time challenge).
    static func ceremony(_ body: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        var response = try Response.json(body, status: status)
        response.headers[.cacheControl] = "no-store"
        return response
    }
}
