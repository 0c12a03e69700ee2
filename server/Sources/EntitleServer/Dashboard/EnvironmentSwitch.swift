import EntitleWire

/// Whose figures a report page shows, and links to the others: real customers (Production, the
/// default of an app that accepts it), testers (Sandbox, Xcode, StoreKit local testing) or both.
enum EnvironmentSwitch {
    static let labels: [(scope: AnalyticsScope, label: String)] = [
        (.production, "Customers (Production)"), (.sandbox, "Testers (Sandbox)"), (.all, "Everyone"),
    ]

    /// The query a page's links repeat (CSV exports among them): its days and whose figures.
    static func query(from: String, to: String, environment: AnalyticsScope) -> String {
        "from=\(HTML.escape(from))&amp;to=\(HTML.escape(to))&amp;environment=\(environment.rawValue)"
    }

    /// The switch at the top of `path`'s page, keeping its days.
    static func render(path: String, from: String, to: String, current: AnalyticsScope) -> String {
        let choices = labels.map { scope, label in
            scope == current
                ? "<strong data-environment=\"\(scope.rawValue)\">\(label)</strong>"
                : "<a href=\"\(path)?\(query(from: from, to: to, environment: scope))\">\(label)</a>"
        }
        return "<p class=\"muted\" data-environment-switch>Counting: " + choices.joined(separator: " · ") + "</p>"
    }

    /// A hidden field that keeps whose figures when a page's form changes its days.
    static func field(_ current: AnalyticsScope) -> String {
        "<input type=\"hidden\" name=\"environment\" value=\"\(current.rawValue)\">"
    }
}
