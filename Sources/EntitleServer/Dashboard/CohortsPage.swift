import EntitleAnalytics

/// `/dashboard/cohorts`: realized LTV per customer by monthly cohort.
enum CohortsPage {
    static func render(_ report: AnalyticsReport) -> String {
        let range = "from=\(report.from)&amp;to=\(report.to)"
        let width = report.cohorts.flatMap { $0.lifetimeValue.values.map(\.count) }.max() ?? 0
        var rows: [[String]] = []
        for cohort in report.cohorts {
            if cohort.lifetimeValue.isEmpty { rows.append([cohort.cohort, "\(cohort.customers)", ""] + Array(repeating: "", count: width)) }
            for (currency, values) in cohort.lifetimeValue.sorted(by: { $0.key < $1.key }) {
                rows.append([HTML.escape(cohort.cohort), "\(cohort.customers)", HTML.escape(currency)]
                    + (0..<width).map { values[safe: $0].map { HTML.money($0, currency) } ?? "" })
            }
        }
        let body = """
            <h1>Cohorts</h1>
            <p class="muted">Customers by the month of their first purchase or app-managed trial; realized lifetime value per customer
            (net revenue to date over the cohort's size) at the end of each month since.</p>
            <section class="panel"><h2>Realized LTV<a class="csv" href="/dashboard/export/cohorts.csv?\(range)">CSV</a></h2>
            \(DashboardLayout.table(id: "cohorts", header: ["Cohort", "Customers", "Currency"] + (0..<width).map { "Month \($0)" }, rows: rows))
            </section>
            """
        return DashboardLayout.page(title: "Cohorts", section: .cohorts, body: body)
    }
}
