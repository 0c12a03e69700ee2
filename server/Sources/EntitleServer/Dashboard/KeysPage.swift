import EntitleStorage
import Foundation

/// `/dashboard/keys`: the app's stored API keys (never the keys), a form to create one (shown once) and
/// a button to revoke each.
enum KeysPage {
    static func render(app: String, keys: [StoredKey], created: (key: String, stored: StoredKey)?, now: Date) -> String {
        var body = "<h1>API keys of \(HTML.escape(app))</h1>"
        if let created {
            body += """
                <section class="panel"><p>New \(created.stored.kind.rawValue) key <code>\(HTML.escape(created.stored.id))</code>. Copy it now: \
                it is shown once.</p><p><code data-new-key>\(HTML.escape(created.key))</code></p></section>
                """
        }
        body += """
            <form class="inline" method="post" action="/dashboard/keys">
            <select name="kind"><option value="app">app key (ships in the app)</option><option value="secret">secret key (a backend's)</option></select>
            <select name="scope"><option value="admin">admin (a secret key: everything)</option><option value="support">support (reads, and changes to one subscriber)</option><option value="viewer">viewer (reads)</option></select>
            <input name="name" placeholder="name, e.g. iOS app" size="24" maxlength="100">
            <button type="submit">Create key</button></form>
            """
        let rows = keys.map { key -> [String] in
            let state = key.isActive(at: now)
                ? "<form method=\"post\" action=\"/dashboard/keys/\(HTML.escape(key.id))/revoke\"><button type=\"submit\">Revoke</button></form>"
                : "revoked \(HTML.escape(key.revokedAt.map { $0.formatted(.iso8601) } ?? ""))"
            return [
                "<code>\(HTML.escape(key.id))</code>", HTML.escape(key.kind.rawValue), "<code>\(HTML.escape(key.prefix))…</code>",
                HTML.escape(key.name ?? "–"), HTML.escape(key.createdAt.formatted(.iso8601)), state,
            ]
        }
        body += "<section class=\"panel\">" + (rows.isEmpty
            ? "<p class=\"muted\">No stored keys yet.</p>"
            : DashboardLayout.table(id: "keys", header: ["id", "kind", "starts", "name", "created", ""], rows: rows)) + "</section>"
        return DashboardLayout.page(title: "Keys", section: .keys, body: body)
    }
}
