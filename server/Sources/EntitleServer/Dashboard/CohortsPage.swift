import EntitleAnalytics
import EntitleWire

/// `/dashboard/cohorts`: realized LTV per customer by monthly cohort, as a heat map per currency.
enum CohortsPage {
    static func render(_ report: AnalyticsReport) -> String {
        let range = "from=\(report.from)&amp;to=\(report.to)"
        let width = report.cohorts.flatMap { $0.lifetimeValue.values.map(\.count) }.max() ?? 0
        let currencies = Set(report.cohorts.flatMap { $0.lifetimeValue.keys }).sorted()
        var body = """
            <h1>Cohorts</h1>
            <p class="muted">Customers by the month of their first purchase or app-managed trial; realized lifetime value per customer
            (net revenue to date over the cohort's size) at the end of each month since. The deeper the colour, the more a customer has paid.</p>
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
        return DashboardLayout.page(title: "Cohorts", section: .cohorts, body: body)
    }
}
