import EntitleStorage
import Foundation

/// `/dashboard/accounts` (owners): the people, their roles and last sign-in, an invitation form (the new
/// link shown once), a role change and a disable button for each; and the signed-in person's passkeys.
enum AccountsPage {
    struct Invited {
        var email: String
        var role: String
        var link: String
        var expiresAt: Date
    }

    static func render(accounts: [DashboardAccount], invited: Invited?, now: Date) -> String {
        var body = "<h1>Accounts</h1>"
        if let invited {
            body += """
                <section class="panel"><p>\(HTML.escape(invited.email)) is invited as <b>\(HTML.escape(invited.role))</b> until \
                \(HTML.escape(invited.expiresAt.formatted(.iso8601))). Send them this link; it is shown once and works once:</p>
                <p><code data-invitation-link>\(HTML.escape(invited.link))</code></p></section>
                """
        }
        let roles = DashboardRole.allCases.map { "<option value=\"\($0.rawValue)\">\($0.rawValue)</option>" }.joined()
        body += """
            <form class="inline" method="post" action="/dashboard/accounts/invitations" data-invite>
            <input type="email" name="email" placeholder="teammate@example.com" size="32" required>
            <select name="role">\(roles)</select>
            <button type="submit">Invite</button></form>
            <p class="muted">owner: everything and the people · admin: everything of every app (keys, webhooks, experiments, imports) · \
            support: reads, and changes to one subscriber · viewer: reads.</p>
            """
        let rows = accounts.map { account -> [String] in
            let options = DashboardRole.allCases.map {
                "<option value=\"\($0.rawValue)\"\($0 == account.role ? " selected" : "")>\($0.rawValue)</option>"
            }.joined()
            let actions = account.isActive(at: now)
                ? """
                <form class="inline" method="post" action="/dashboard/accounts/\(HTML.escape(account.id))/role"><select name="role">\(options)</select>\
                <button type="submit">Change role</button></form>\
                <form method="post" action="/dashboard/accounts/\(HTML.escape(account.id))/disable"><button type="submit">Disable</button></form>
                """
                : "disabled \(HTML.escape(account.disabledAt.map { $0.formatted(.iso8601) } ?? ""))"
            let state = account.lockedUntil.map { now < $0 ? "locked until \($0.formatted(.iso8601))" : "" } ?? ""
            return [
                HTML.escape(account.email), HTML.escape(account.name ?? "–"), "<b data-role>\(account.role.rawValue)</b>",
                HTML.escape(account.lastSignInAt.map { $0.formatted(.iso8601) } ?? "never"), HTML.escape(state), actions,
            ]
        }
        body += "<section class=\"panel\">" + (rows.isEmpty
            ? "<p class=\"muted\">No accounts yet: invite the first person above, or with <code>entitle accounts invite</code>.</p>"
            : DashboardLayout.table(id: "accounts", header: ["email", "name", "role", "last sign-in", "", ""], rows: rows)) + "</section>"
        return DashboardLayout.page(title: "Accounts", section: .accounts, body: body)
    }
}
