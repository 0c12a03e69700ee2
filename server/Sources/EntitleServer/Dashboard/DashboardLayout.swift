import Foundation

/// The dashboard's page frame: styles inline (no CDN, no web font), navigation, sign-out.
enum DashboardLayout {
    enum Section: String, CaseIterable {
        case overview = "Overview", funnels = "Funnels", experiments = "Experiments", cohorts = "Cohorts", products = "Products", customers = "Customers", subscribers = "Subscribers", webhooks = "Webhooks", keys = "Keys", audit = "Audit", accounts = "Accounts"
        var path: String {
            switch self {
            case .overview: "/dashboard"
            case .funnels: "/dashboard/funnels"
            case .experiments: "/dashboard/experiments"
            case .cohorts: "/dashboard/cohorts"
            case .products: "/dashboard/products"
            case .customers: "/dashboard/customers"
            case .subscribers: "/dashboard/subscribers"
            case .webhooks: "/dashboard/webhooks"
            case .keys: "/dashboard/keys"
            case .audit: "/dashboard/audit"
            case .accounts: "/dashboard/accounts"
            }
        }
    }

    static let style = """
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d1d1f;background:#f5f5f7}
        header{background:#1d1d1f;color:#fff;padding:10px 24px;display:flex;gap:20px;align-items:center}
        header a{color:#d2d2d7;text-decoration:none}header a.on{color:#fff;font-weight:600}
        header nav.apps{display:flex;gap:8px;padding-right:12px;border-right:1px solid #6e6e73}header nav.apps a{font-size:12px}
        header form{margin-left:auto}header .who{color:#d2d2d7;font-size:12px;margin-right:8px}header button{background:none;border:1px solid #6e6e73;color:#d2d2d7;border-radius:6px;padding:3px 10px;cursor:pointer}
        main{padding:20px 24px;max-width:1560px}
        h1{font-size:22px;margin:0 0 12px}h2{font-size:16px;margin:0 0 8px}
        .cards{display:flex;flex-wrap:wrap;gap:12px;margin-bottom:16px}
        .card{background:#fff;border-radius:10px;padding:12px 16px;min-width:150px;box-shadow:0 1px 2px #0001}
        .card b{display:block;font-size:22px}.card span{color:#6e6e73}
        .grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(900px,1fr));gap:16px}
        section.panel{background:#fff;border-radius:10px;padding:14px 16px;box-shadow:0 1px 2px #0001;margin-bottom:16px;overflow-x:auto}
        svg.chart{display:block;width:100%;height:auto}.chart .axis{stroke:#c7c7cc}.chart .tick{font-size:13px;fill:#6e6e73}
        .legend span{margin-right:14px;color:#3a3a3c}.legend i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px}
        table{border-collapse:collapse;width:100%}th,td{padding:4px 8px;border-bottom:1px solid #e5e5ea;text-align:right;white-space:nowrap}
        th:first-child,td:first-child{text-align:left}th{color:#6e6e73;font-weight:500}
        tr.changed td{background:#eef6ff}
        .muted{color:#6e6e73}.error{color:#b00020}
        a.csv{font-size:12px;margin-left:8px}
        form.inline{display:flex;gap:8px;align-items:center;margin-bottom:14px}
        input{padding:5px 8px;border:1px solid #c7c7cc;border-radius:6px}
        """

    /// The apps a server serves and the one shown, for the header's switcher.
    struct Switcher: Sendable {
        var apps: [String]
        var current: String
    }

    /// Set while a page of a server serving several apps renders.
    @TaskLocal static var switcher: Switcher?

    /// Who is signed in and as what, shown beside "Sign out": set by the session middleware.
    @TaskLocal static var signedIn: (who: String, role: String)?

    static func page(title: String, section: Section?, body: String) -> String {
        var nav = ""
        if let switcher, section != nil {
            let choices = switcher.apps.map { ($0, $0) } + [(DashboardController.allApps, "All apps")]
            nav += "<nav class=\"apps\" data-apps>" + choices.map { value, label in
                "<a href=\"/dashboard/apps/\(HTML.escape(value))\"\(value == switcher.current ? " class=\"on\" data-current-app" : "")>\(HTML.escape(label))</a>"
            }.joined(separator: " ") + "</nav>"
        }
        // Every page of a signed-in person has the navigation and the sign-out button (their own page has no section).
        if section != nil || signedIn != nil {
            for item in Section.allCases {
                nav += "<a href=\"\(item.path)\"\(item == section ? " class=\"on\"" : "")>\(item.rawValue)</a>"
            }
            let who = signedIn.map { "<a class=\"who\" href=\"/dashboard/me\" data-signed-in>\(HTML.escape($0.who)) · \(HTML.escape($0.role))</a> " } ?? ""
            nav += "<form method=\"post\" action=\"/dashboard/logout\">\(who)<button type=\"submit\">Sign out</button></form>"
        }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
            <title>\(HTML.escape(title)) · Entitle</title><style>\(style)</style></head>
            <body><header><strong>Entitle</strong>\(nav)</header><main>
            \(body)
            </main></body></html>
            """
    }

    /// A table from a header row and rows of already-escaped cells; `heat` shades cells by a fraction
    /// from 0 to 1 (a heat map), `nil` for none.
    static func table(id: String, header: [String], rows: [[String]], rowClasses: [String?] = [], heat: [[Double?]] = []) -> String {
        var html = "<table data-table=\"\(HTML.escape(id))\"><thead><tr>"
        html += header.map { "<th>\(HTML.escape($0))</th>" }.joined()
        html += "</tr></thead><tbody>"
        for (index, row) in rows.enumerated() {
            let rowClass = rowClasses[safe: index].flatMap { $0 }.map { " class=\"\($0)\"" } ?? ""
            let shades = heat[safe: index] ?? []
            html += "<tr\(rowClass)>" + row.enumerated().map { column, cell in
                guard let fraction = shades[safe: column].flatMap({ $0 }) else { return "<td>\(cell)</td>" }
                let alpha = String(format: "%.2f", 0.08 + 0.6 * min(max(fraction, 0), 1))
                return "<td class=\"heat\" style=\"background:rgba(0,113,227,\(alpha))\" data-heat=\"\(String(format: "%.3f", fraction))\">\(cell)</td>"
            }.joined() + "</tr>"
        }
        return html + "</tbody></table>"
    }
}
