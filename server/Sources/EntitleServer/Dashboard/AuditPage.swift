import EntitleWire
import Foundation

/// `/dashboard/audit`: the app's audit log, the newest 200 changes with what each found and left
/// (docs/operations.md, "Audit log").
enum AuditPage {
    static func render(app: String, log: AuditLogResponse) -> String {
        var body = "<h1>Audit log of \(HTML.escape(app))</h1>"
        let rows = log.entries.map { entry -> [String] in
            [
                HTML.escape(entry.at.formatted(.iso8601)), HTML.escape(entry.actor), "<code>\(HTML.escape(entry.action))</code>",
                HTML.escape(entry.subject ?? "–"), "<code>\(HTML.escape(entry.request ?? ""))</code>",
                "<code data-before>\(HTML.escape(entry.before ?? ""))</code>", "<code data-after>\(HTML.escape(entry.after ?? ""))</code>", "\(entry.status)",
                "<code>\(HTML.escape(entry.requestID ?? ""))</code>",
            ]
        }
        body += "<section class=\"panel\">" + (rows.isEmpty
            ? "<p class=\"muted\">No change recorded yet.</p>"
            : DashboardLayout.table(id: "audit", header: ["when", "who", "what", "subject", "sent", "before", "after", "status", "request"], rows: rows)) + "</section>"
        return DashboardLayout.page(title: "Audit log", section: .audit, body: body)
    }
}
