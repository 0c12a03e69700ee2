import EntitleAnalytics
import EntitleWire

/// `/dashboard/funnels`: the path from first seen to paid, the paywalls' funnel by month, and each
/// paywall, offering, trigger and feature's funnel (docs/growth.md).
enum FunnelsPage {
    static let dimensionTitles = ["all": "Every paywall", "paywall": "By paywall", "offering": "By offering", "trigger": "By trigger", "feature": "By feature"]

    static func render(_ report: FunnelReport) -> String {
        let colors = OverviewPage.colors
        let path = report.path
        var body = """
            <h1>Funnels</h1>
            <form class="inline" method="get" action="/dashboard/funnels">
            <label>From <input type="date" name="from" value="\(report.from)"></label>
            <label>To <input type="date" name="to" value="\(report.to)"></label>\(EnvironmentSwitch.field(report.environment))
            <button type="submit">Show</button><span class="muted">Subscribers first seen, and paywalls first seen, in these UTC days;
            what they did next, to date</span></form>
            \(EnvironmentSwitch.render(path: "/dashboard/funnels", from: report.from, to: report.to, current: report.environment))
            <div class="cards">
            """
        body += OverviewPage.card("First seen", HTML.count(path.arrivals), metric: "arrivals", value: path.arrivals)
        body += OverviewPage.card("Saw a paywall (\(HTML.percent(path.paywallRate)))", HTML.count(path.sawPaywall), metric: "arrivals-saw-paywall", value: path.sawPaywall)
        body += OverviewPage.card("Began a trial (\(HTML.percent(path.trialRate)))", HTML.count(path.trials), metric: "arrivals-trials", value: path.trials)
        body += OverviewPage.card("Paid (\(HTML.percent(path.paidRate)))", HTML.count(path.paid), metric: "arrivals-paid", value: path.paid)
        body += "</div>"

        let months = report.months.map(\.month)
        body += "<section class=\"panel\"><h2>From first seen to paid, by month of arrival</h2>" + SVGChart(
            id: "arrivals", title: "Arrivals and how far they went, by month", labels: months,
            series: [
                .init(name: "First seen", color: colors[0], values: report.months.map { Double($0.path.arrivals) }),
                .init(name: "Saw a paywall", color: colors[5], values: report.months.map { Double($0.path.sawPaywall) }),
                .init(name: "Began a trial", color: colors[2], values: report.months.map { Double($0.path.trials) }),
                .init(name: "Paid", color: colors[1], values: report.months.map { Double($0.path.paid) }),
            ],
            style: .bars).render() + "</section>"
        body += "<section class=\"panel\"><h2>Paywalls by month</h2>" + SVGChart(
            id: "paywalls", title: "Paywall impressions, viewers and conversions by month", labels: months,
            series: [
                .init(name: "Impressions", color: colors[0], values: report.months.map { Double($0.paywalls.impressions) }),
                .init(name: "Viewers", color: colors[5], values: report.months.map { Double($0.paywalls.viewers) }),
                .init(name: "Trials", color: colors[2], values: report.months.map { Double($0.paywalls.trialConversions) }),
                .init(name: "Paid", color: colors[1], values: report.months.map { Double($0.paywalls.paidConversions) }),
            ],
            style: .bars).render() + "</section>"

        for dimension in FunnelReport.dimensions {
            let rows = report.segments.filter { $0.dimension == dimension }
            guard dimension == "all" || !rows.isEmpty else { continue }
            body += "<section class=\"panel\"><h2>\(HTML.escape(dimensionTitles[dimension] ?? dimension))</h2>"
            body += table(id: "funnel-\(dimension)", rows: rows, currencies: report.currencies, named: dimension != "all")
            body += "</section>"
        }
        return DashboardLayout.page(title: "Funnels", section: .funnels, body: body)
    }

    static func table(id: String, rows: [FunnelRow], currencies: [String], named: Bool) -> String {
        var header = named ? ["Name"] : []
        header += ["Impressions", "Viewers", "Bounce", "Purchases started", "Cancelled", "Failed", "Bought", "Trials", "Paid"]
        header += currencies.flatMap { ["Revenue (\($0))", "Per viewer (\($0))"] }
        let cells = rows.map { row -> [String] in
            (named ? [row.value.isEmpty ? "<span class=\"muted\">(none)</span>" : HTML.escape(row.value)] : [])
                + [
                    HTML.count(row.impressions), HTML.count(row.viewers), HTML.percent(row.bounceRate), HTML.count(row.purchasesStarted),
                    HTML.count(row.purchasesCancelled), HTML.count(row.purchasesFailed), HTML.count(row.purchased),
                    "\(HTML.count(row.trialConversions)) (\(HTML.percent(row.trialConversionRate)))",
                    "\(HTML.count(row.paidConversions)) (\(HTML.percent(row.paidConversionRate)))",
                ]
                + currencies.flatMap { [HTML.amount(row.revenue[$0] ?? 0), HTML.amount(row.revenuePerViewer[$0] ?? 0)] }
        }
        return DashboardLayout.table(id: id, header: header, rows: cells)
    }
}
