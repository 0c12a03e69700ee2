import EntitleAnalytics
import EntitleWire

/// `/dashboard/cohorts`: realized LTV per customer by monthly cohort, as a heat map per currency, and
/// retention by first paid month.
enum CohortsPage {
    static func render(_ report: AnalyticsReport) -> String {
        let range = EnvironmentSwitch.query(from: report.from, to: report.to, environment: report.environment)
        let width = report.cohorts.flatMap { $0.lifetimeValue.values.map(\.count) }.max() ?? 0
        let currencies = Set(report.cohorts.flatMap { $0.lifetimeValue.keys }).sorted()
        var body = """
            <h1>Cohorts</h1>
            <p class="muted">Customers by the month of their first purchase or app-managed trial; realized lifetime value per customer
            (net revenue to date over the cohort's size) at the end of each month since. The deeper the colour, the more a customer has paid.</p>
            \(EnvironmentSwitch.render(path: "/dashboard/cohorts", from: report.from, to: report.to, current: report.environment))
            """
        if currencies.isEmpty {
            body += "<section class=\"panel\"><h2>Realized LTV<a class=\"csv\" href=\"/dashboard/export/cohorts.csv?\(range)\">CSV</a></h2>"
            body += DashboardLayout.table(id: "cohorts", header: ["Cohort", "Customers"], rows: report.cohorts.map { [HTML.escape($0.cohort), HTML.count($0.customers)] })
            body += "</section>"
        }
        for (index, currency) in currencies.enumerated() {
            let highest = report.cohorts.compactMap { $0.lifetimeValue[currency]?.max() }.max() ?? 0
            var rows: [[String]] = []
            var heat: [[Double?]] = []
            for cohort in report.cohorts {
                let values = cohort.lifetimeValue[currency] ?? []
                rows.append([HTML.escape(cohort.cohort), HTML.count(cohort.customers)] + (0..<width).map { values[safe: $0].map(HTML.amount) ?? "" })
                heat.append([nil, nil] + (0..<width).map { column in
                    values[safe: column].map { highest > 0 ? max(0, Double($0) / Double(highest)) : 0 }
                })
            }
            let csv = index == 0 ? "<a class=\"csv\" href=\"/dashboard/export/cohorts.csv?\(range)\">CSV</a>" : ""
            body += "<section class=\"panel\"><h2>Realized LTV per customer (\(HTML.escape(currency)))\(csv)</h2>"
            body += DashboardLayout.table(
                id: index == 0 ? "cohorts" : "cohorts-\(currency)", header: ["Cohort", "Customers"] + (0..<width).map { "Month \($0)" }, rows: rows,
                heat: heat)
            body += "</section>"
        }
        body += retention(report, range: range)
        return DashboardLayout.page(title: "Cohorts", section: .cohorts, body: body)
    }

    /// Retention by the month of each customer's first paid day: the share with paid access at the end
    /// of each month since (seed 004's Month 1/3/6 churn is one minus it).
    static func retention(_ report: AnalyticsReport, range: String) -> String {
        let width = report.retention.map(\.active.count).max() ?? 0
        var rows: [[String]] = []
        var heat: [[Double?]] = []
        for row in report.retention {
            rows.append([HTML.escape(row.cohort), HTML.count(row.customers)] + (0..<width).map { row.retention[safe: $0].map { HTML.percent($0) } ?? "" })
            heat.append([nil, nil] + (0..<width).map { row.retention[safe: $0] })
        }
        return "<section class=\"panel\" data-retention><h2>Retention by first paid month<a class=\"csv\" href=\"/dashboard/export/retention.csv?\(range)\">CSV</a></h2>"
            + "<p class=\"muted\">Of the customers whose first paid day fell in the month, the share with paid access at the end of each month since; "
            + "churn after N months is 100% less month N.</p>"
            + DashboardLayout.table(id: "retention", header: ["Cohort", "Customers"] + (0..<width).map { "Month \($0)" }, rows: rows, heat: heat)
            + "</section>"
    }
}
