import EntitleCore
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// The dashboard's people over HTTP (docs/dashboard.md, "Accounts"): an invitation link, a password, a
/// role that bounds every page and form, an owner's accounts page, and the audit log naming the person.
@Suite("DashboardAccountsController")
struct DashboardAccountsControllerTests {
    static let form: HTTPFields = [
        .contentType: "application/x-www-form-urlencoded", HTTPField.Name("Origin")!: "http://localhost",
        HTTPField.Name("Sec-Fetch-Site")!: "same-origin",
    ]

    static func encoded(_ fields: [(String, String)]) -> ByteBuffer {
        ByteBuffer(string: fields.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&"))
    }

    /// Invites `email` as `role` the way `entitle accounts invite` does, accepts over HTTP, and returns the session cookie.
    static func join(_ harness: ServerHarness, _ client: any TestClientProtocol, _ email: String, as role: DashboardRole, password: String) async throws -> String {
        let accounts = DashboardAccounts(
            store: harness.store.dashboardAccountStore(), sessions: harness.store.dashboardSessionStore(), hasher: PasswordHasher(cost: .testing),
            now: harness.clock.reading)
        let (_, token) = try await accounts.invite(email: email, role: role, invitedBy: "cli")
        let page = try await client.execute(uri: "/dashboard/invitation?token=\(token)", method: .get)
        #expect(page.status == .ok && String(buffer: page.body).contains(email.lowercased()))
        let accepted = try await client.execute(
            uri: "/dashboard/invitation", method: .post, headers: form, body: encoded([("token", token), ("name", "Jane"), ("password", password)]))
        #expect(accepted.status == .seeOther && accepted.headers[.location] == "/dashboard")
        // The link works once.
        let again = try await client.execute(uri: "/dashboard/invitation?token=\(token)", method: .get)
        #expect(again.status == .notFound && String(buffer: again.body).contains("account.invitationClosed"))
        return try #require(accepted.headers[.setCookie]?.split(separator: ";").first.map(String.init))
    }

    @Test("a support account signs in with its password, changes a subscriber, is refused the admin and owner pages; the audit log names them with the entitlements before and after")
    func supportAccount() async throws {
        try await ServerHarness.run { harness, client in
            _ = try await Self.join(harness, client, "Jane@Example.com", as: .support, password: "correct horse battery")
            // Signing in again with the password.
            let wrong = try await client.execute(
                uri: "/dashboard/login", method: .post, headers: Self.form, body: Self.encoded([("email", "jane@example.com"), ("password", "wrong password!!")]))
            #expect(wrong.status == .unauthorized && String(buffer: wrong.body).contains("that email and password"))
            let signIn = try await client.execute(
                uri: "/dashboard/login", method: .post, headers: Self.form,
                body: Self.encoded([("email", " JANE@example.com "), ("password", "correct horse battery")]))
            #expect(signIn.status == .seeOther)
            let cookie = try #require(signIn.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            var headers = Self.form
            headers[.cookie] = cookie

            // Reads: yes, with who is signed in.
            let overview = try await client.execute(uri: "/dashboard", method: .get, headers: [.cookie: cookie])
            #expect(overview.status == .ok && String(buffer: overview.body).contains("jane@example.com · support"))
            // A change to one subscriber: yes.
            _ = try await harness.post(
                client, "/v1/subscribers/parent-1/grants", key: ServerHarness.secretKey,
                body: ServerHarness.json(GrantRequest(entitlementID: "family", endsAt: harness.clock.now.addingTimeInterval(86_400), reason: "before")))
            let extend = try await client.execute(
                uri: "/dashboard/subscribers/parent-1/refresh", method: .post, headers: headers, body: ByteBuffer())
            #expect(extend.status != .forbidden)
            // An admin route: no, naming the role it needs; nothing made.
            let key = try await client.execute(uri: "/dashboard/keys", method: .post, headers: headers, body: Self.encoded([("kind", "secret"), ("scope", "admin")]))
            #expect(key.status == .forbidden)
            let refusal = String(buffer: key.body)
            #expect(refusal.contains("auth.forbidden") && refusal.contains("support") && refusal.contains("needs admin"))
            #expect(!refusal.contains("sk_"))
            // The owner's page: no, not even to read.
            let people = try await client.execute(uri: "/dashboard/accounts", method: .get, headers: [.cookie: cookie])
            #expect(people.status == .forbidden && String(buffer: people.body).contains("needs owner"))

            let log = try ServerHarness.decode(AuditLogResponse.self, try await harness.get(client, "/v1/audit-log", key: ServerHarness.secretKey))
            #expect(!log.entries.contains { $0.action == "POST /dashboard/keys" }, "a refusal leaves nothing")
            #expect(!log.entries.contains { $0.request?.contains("correct horse") == true })
        }
    }

    @Test("a grant made by a support person on the subscriber's page is in the audit log: who, the subscriber, the entitlements before and after")
    func auditOfAGrant() async throws {
        try await ServerHarness.run { harness, client in
            let cookie = try await Self.join(harness, client, "agent@example.com", as: .support, password: "a long support password")
            var headers = Self.form
            headers[.cookie] = cookie
            // parent-1 is known (a first grant by the backend), with a week of family.
            _ = try await harness.post(
                client, "/v1/subscribers/parent-1/grants", key: ServerHarness.secretKey,
                body: ServerHarness.json(GrantRequest(entitlementID: "family", endsAt: harness.clock.now.addingTimeInterval(7 * 86_400), reason: "first")))
            let page = try await client.execute(uri: "/dashboard/subscribers/parent-1", method: .get, headers: [.cookie: cookie])
            #expect(String(buffer: page.body).contains("action=\"/dashboard/subscribers/parent-1/grants\""), "the grant form")
            let granted = try await client.execute(
                uri: "/dashboard/subscribers/parent-1/grants", method: .post, headers: headers,
                body: Self.encoded([("entitlement", "family"), ("days", "30"), ("reason", "goodwill: app crashed")]))
            #expect(granted.status == .seeOther && granted.headers[.location] == "/dashboard/subscribers/parent-1")
            // A viewer may not.
            let viewer = try await Self.join(harness, client, "analyst@example.com", as: .viewer, password: "a long analyst password")
            headers[.cookie] = viewer
            let refused = try await client.execute(
                uri: "/dashboard/subscribers/parent-1/grants", method: .post, headers: headers,
                body: Self.encoded([("entitlement", "family"), ("days", "30"), ("reason", "no")]))
            #expect(refused.status == .forbidden && String(buffer: refused.body).contains("needs support"))

            let log = try ServerHarness.decode(AuditLogResponse.self, try await harness.get(client, "/v1/audit-log", key: ServerHarness.secretKey))
            let grant = try #require(log.entries.first { $0.action == "POST /dashboard/subscribers/{appUserID}/grants" })
            #expect(grant.actor == "account:agent@example.com" && grant.subject == "parent-1" && grant.status == 303)
            #expect(grant.request?.contains("goodwill: app crashed") == true)
            let before = try #require(grant.before), after = try #require(grant.after)
            #expect(before.contains(#""id":"family""#) && after.contains(#""id":"family""#) && before != after, "the expiry moved: \(before) → \(after)")
            #expect(after.contains(#""source":"grant""#) && after.contains(#""state":"granted""#))
            #expect(log.entries.filter { $0.action == "POST /dashboard/subscribers/{appUserID}/grants" }.count == 1, "the viewer's refusal left nothing")
            // The dashboard's Audit page shows it, before and after.
            let audit = String(buffer: try await client.execute(uri: "/dashboard/audit", method: .get, headers: [.cookie: cookie]).body)
            #expect(audit.contains("account:agent@example.com") && audit.contains("<code data-after>[{&quot;expiresAt&quot;:&quot;2026-02-04"))
            // For the record: the entry as the API returns it.
            print("audit entry: \(String(decoding: try JSONEncoder().encode(grant), as: UTF8.self))")
        }
    }

    @Test("an owner invites from the accounts page (the link shown once), lowers a role, and disables an account, whose session ends at once; the last owner stays")
    func ownerManagesPeople() async throws {
        try await ServerHarness.run { harness, client in
            let owner = try await Self.join(harness, client, "owner@example.com", as: .owner, password: "the owner's password")
            var headers = Self.form
            headers[.cookie] = owner
            let invited = try await client.execute(
                uri: "/dashboard/accounts/invitations", method: .post, headers: headers, body: Self.encoded([("email", "sam@example.com"), ("role", "admin")]))
            let page = String(buffer: invited.body)
            #expect(invited.status == .ok && page.contains("sam@example.com is invited as <b>admin</b>"))
            let link = try #require(page.components(separatedBy: "<code data-invitation-link>").dropFirst().first?.components(separatedBy: "</code>").first)
            #expect(link.hasPrefix("http://") && link.contains("/dashboard/invitation?token=inv_"))
            let token = String(try #require(link.components(separatedBy: "token=").last))
            let accepted = try await client.execute(
                uri: "/dashboard/invitation", method: .post, headers: Self.form, body: Self.encoded([("token", token), ("password", "sam's long password")]))
            let sam = try #require(accepted.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            #expect(try await client.execute(uri: "/dashboard/keys", method: .get, headers: [.cookie: sam]).status == .ok)

            let people = try await DashboardAccounts(
                store: harness.store.dashboardAccountStore(), sessions: harness.store.dashboardSessionStore(), now: harness.clock.reading
            ).accounts()
            let samID = try #require(people.first { $0.email == "sam@example.com" }?.id)
            let ownerID = try #require(people.first { $0.email == "owner@example.com" }?.id)
            // Lowered to viewer: Sam's session ends (a lower role signs in again).
            let lowered = try await client.execute(uri: "/dashboard/accounts/\(samID)/role", method: .post, headers: headers, body: Self.encoded([("role", "viewer")]))
            #expect(lowered.status == .seeOther)
            #expect(try await client.execute(uri: "/dashboard/keys", method: .get, headers: [.cookie: sam]).headers[.location] == "/dashboard/login")
            // Disabled: signs in no more.
            _ = try await client.execute(uri: "/dashboard/accounts/\(samID)/disable", method: .post, headers: headers, body: ByteBuffer())
            let again = try await client.execute(
                uri: "/dashboard/login", method: .post, headers: Self.form, body: Self.encoded([("email", "sam@example.com"), ("password", "sam's long password")]))
            #expect(again.status == .unauthorized)
            // The last owner can't lower or disable themselves.
            let last = try await client.execute(uri: "/dashboard/accounts/\(ownerID)/disable", method: .post, headers: headers, body: ByteBuffer())
            #expect(last.status == .conflict && String(buffer: last.body).contains("account.lastOwner"))

            // Each change in the first app's audit log, by the owner, with the role before and after.
            let log = try ServerHarness.decode(AuditLogResponse.self, try await harness.get(client, "/v1/audit-log", key: ServerHarness.secretKey))
            let role = try #require(log.entries.first { $0.action == "POST /dashboard/accounts/{accountID}/role" })
            #expect(role.actor == "account:owner@example.com" && role.subject == samID)
            #expect(role.before == "sam@example.com: admin" && role.after == "sam@example.com: viewer")
            #expect(log.entries.contains { $0.action == "POST /dashboard/accounts/{accountID}/disable" && $0.after == "sam@example.com: disabled" })
            #expect(log.entries.contains { $0.action == "POST /dashboard/accounts/invitations" && $0.after == "invited sam@example.com as admin" })
            #expect(!log.entries.contains { $0.request?.contains("password") == true && $0.request?.contains("[redacted]") == false })
        }
    }

    @Test("five wrong passwords lock the account, on every instance: the right one is refused with auth.signInLocked until the lock ends")
    func lockout() async throws {
        try await ServerHarness.run { harness, client in
            _ = try await Self.join(harness, client, "kim@example.com", as: .viewer, password: "kim's real password")
            func attempt(_ password: String) async throws -> TestResponse {
                try await client.execute(
                    uri: "/dashboard/login", method: .post, headers: Self.form, body: Self.encoded([("email", "kim@example.com"), ("password", password)]))
            }
            for _ in 0..<4 { #expect(try await attempt("not kim's password").status == .unauthorized) }
            #expect(try await attempt("not kim's password").status == .tooManyRequests)
            let locked = try await attempt("kim's real password")
            #expect(locked.status == .tooManyRequests && String(buffer: locked.body).contains("too many failed sign-ins"))
            harness.clock.advance(days: 61.0 / 86_400)
            #expect(try await attempt("kim's real password").status == .seeOther)
            // An unknown email is refused as a wrong password is.
            let unknown = try await client.execute(
                uri: "/dashboard/login", method: .post, headers: Self.form, body: Self.encoded([("email", "nobody@example.com"), ("password", "whatever it is!!")]))
            #expect(unknown.status == .unauthorized)
        }
    }
}

extension DashboardAccountsControllerTests {
    @Test("one address spraying passwords over many accounts is refused after 20 failures, the right password too; another address is not")
    func perAddress() async throws {
        try await ServerHarness.run { harness, client in
            _ = try await Self.join(harness, client, "kim@example.com", as: .viewer, password: "kim's real password")
            func attempt(_ email: String, _ password: String, from address: String) async throws -> TestResponse {
                var headers = Self.form
                headers[HTTPField.Name("X-Forwarded-For")!] = "198.51.100.1, \(address)"
                return try await client.execute(
                    uri: "/dashboard/login", method: .post, headers: headers, body: Self.encoded([("email", email), ("password", password)]))
            }
            // One guess each at 20 accounts (unknown ones too): no account's own lock is reached.
            for index in 0..<20 { #expect(try await attempt("user\(index)@example.com", "Summer2026!Summer", from: "203.0.113.7").status == .unauthorized) }
            let refused = try await attempt("kim@example.com", "kim's real password", from: "203.0.113.7")
            #expect(refused.status == .tooManyRequests && String(buffer: refused.body).contains("from this address"))
            #expect(try await attempt("kim@example.com", "kim's real password", from: "203.0.113.8").status == .seeOther)
            // The window ends.
            harness.clock.advance(days: 601.0 / 86_400)
            #expect(try await attempt("kim@example.com", "kim's real password", from: "203.0.113.7").status == .seeOther)
        }
    }
}
