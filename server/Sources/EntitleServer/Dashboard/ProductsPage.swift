import EntitleAnalytics
import EntitleWire

/// `/dashboard/products`: active subscriptions and MRR by product and by entitlement; new paid
/// subscriptions, revenue and proceeds by storefront.
enum ProductsPage {
    static func render(_ report: AnalyticsReport) -> String {
        let range = EnvironmentSwitch.query(from: report.from, to: report.to, environment: report.environment)
        let currencies = report.currencies
        let products = report.products.map { row in
            [HTML.escape(row.product), HTML.escape(row.entitlements.joined(separator: ", ")), HTML.count(row.activePaid), HTML.count(row.activeTrials),
             HTML.count(row.activeFamilyShared)] + currencies.map { HTML.amount(row.mrr[$0] ?? 0) }
        }
        let entitlements = report.entitlements.map { row in
            [HTML.escape(row.entitlement), HTML.count(row.activePaid), HTML.count(row.activeTrials), HTML.count(row.activeFamilyShared)]
                + currencies.map { HTML.amount(row.mrr[$0] ?? 0) }
        }
        let storefronts = report.storefronts.map { row in
            [HTML.escape(row.storefront.isEmpty ? "–" : row.storefront), HTML.count(row.newPaid)]
                + currencies.flatMap { [HTML.amount(row.revenue[$0] ?? 0), HTML.amount(row.proceeds[$0] ?? 0)] }
        }
        let body = """
            <h1>Products</h1><p class="muted">At the end of \(report.to).</p>
            \(EnvironmentSwitch.render(path: "/dashboard/products", from: report.from, to: report.to, current: report.environment))
            <section class="panel"><h2>By product<a class="csv" href="/dashboard/export/products.csv?\(range)">CSV</a></h2>
            \(DashboardLayout.table(id: "products", header: ["Product", "Entitlements", "Paid", "Trials", "Family-shared"] + currencies.map { "MRR (\($0))" }, rows: products))
            </section>
            <section class="panel"><h2>By entitlement<a class="csv" href="/dashboard/export/entitlements.csv?\(range)">CSV</a></h2>
            \(DashboardLayout.table(id: "entitlements", header: ["Entitlement", "Paid", "Trials", "Family-shared"] + currencies.map { "MRR (\($0))" }, rows: entitlements))
            </section>
            <section class="panel"><h2>By storefront <span class="muted">\(report.from) to \(report.to)</span><a class="csv" href="/dashboard/export/storefronts.csv?\(range)">CSV</a></h2>
            \(DashboardLayout.table(
                id: "storefronts", header: ["Storefront", "New paid"] + currencies.flatMap { ["Revenue (\($0))", "Proceeds (\($0))"] }, rows: storefronts))
            </section>
            """
        return DashboardLayout.page(title: "Products", section: .products, body: body)
    }
}
