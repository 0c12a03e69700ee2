import EntitleStorage
import Foundation

/// `/dashboard/me`: the signed-in person, their role and their passkeys — add one (the dashboard's script),
/// remove one.
enum MePage {
    /// The page of the person signed in (``DashboardLayout/signedIn``), with their passkeys; `nil` for a key's session.
    static func render(passkeys: [DashboardPasskey]?) -> String {
        guard let passkeys, let (email, role) = DashboardLayout.signedIn else {
            return DashboardLayout.page(title: "You", section: nil, body: """
                <h1>Signed in with a secret key</h1>
                <p class="muted">A key's session is an owner's and has no passkeys: people sign in as themselves (Accounts).</p>
                """)
        }
        let rows = passkeys.map { passkey -> [String] in
            [
                HTML.escape(passkey.name ?? "passkey"), HTML.escape(passkey.createdAt.formatted(.iso8601)),
                HTML.escape(passkey.lastUsedAt.map { $0.formatted(.iso8601) } ?? "never"),
                "<form method=\"post\" action=\"/dashboard/me/passkeys/\(HTML.escape(passkey.credentialID))/remove\"><button type=\"submit\">Remove</button></form>",
            ]
        }
        return DashboardLayout.page(title: "You", section: nil, body: """
            <h1>\(HTML.escape(email))</h1>
            <p>Role: <b>\(HTML.escape(role))</b></p>
            <h2>Passkeys</h2>
            <section class="panel">\(rows.isEmpty ? "<p class=\"muted\" data-no-passkeys>No passkeys yet.</p>" : DashboardLayout.table(id: "passkeys", header: ["name", "added", "last used", ""], rows: rows))</section>
            <p><input data-passkey-name placeholder="name, e.g. work laptop" maxlength="100"> <button type="button" data-add-passkey hidden>Add a passkey</button></p>
            <p class="error" role="alert" data-passkey-error hidden></p>
            <script src="/dashboard/passkeys.js"></script>
            """)
    }
}
