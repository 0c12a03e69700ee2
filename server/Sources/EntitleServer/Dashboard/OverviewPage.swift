import EntitleAnalytics
import EntitleWire
import Foundation

/// `/dashboard`: headline figures, charts of MRR, active subscriptions, trials, churn, refunds and
/// revenue, and the monthly table. Each chart links to its data as CSV.
enum OverviewPage {
    static let colors = ["#0071e3", "#34c759", "#ff9f0a", "#af52de", "#ff3b30", "#5ac8fa"]

    static func render(_ report: AnalyticsReport, health: [(app: String, health: BusinessHealth)] = []) -> String {
        let range = EnvironmentSwitch.query(from: report.from, to: report.to, environment: report.environment)
        var body = """
            <h1>Overview</h1>
            <form class="inline" method="get" action="/dashboard">
            <label>From <input type="date" name="from" value="\(report.from)"></label>
            <label>To <input type="date" name="to" value="\(report.to)"></label>\(EnvironmentSwitch.field(report.environment))
            <button type="submit">Show</button><span class="muted">UTC days; balances at the end of each day</span></form>
            \(EnvironmentSwitch.render(path: "/dashboard", from: report.from, to: report.to, current: report.environment))
            <div class="cards">
            """
        let current = report.current
        for currency in report.currencies {
            body += card("MRR (\(currency))", HTML.money(current.mrr[currency] ?? 0, currency), metric: "mrr-\(currency)", value: current.mrr[currency] ?? 0)
            body += card("ARR (\(currency))", HTML.money(current.arr[currency] ?? 0, currency), metric: "arr-\(currency)", value: current.arr[currency] ?? 0)
        }
        body += card("Active paid subscriptions", HTML.count(current.activePaid), metric: "active-paid", value: current.activePaid)
        body += card("Introductory trials", HTML.count(current.activeTrials), metric: "active-trials", value: current.activeTrials)
        body += card("App-managed trials", HTML.count(current.activeAppTrials), metric: "active-app-trials", value: current.activeAppTrials)
        body += card("Family-shared", HTML.count(current.activeFamilyShared), metric: "active-family-shared", value: current.activeFamilyShared)
        body += "</div>"
        body += checksPanel(health)
        body += "<div class=\"grid\">"

        let days = report.daily.map(\.date)
        let months = report.months.map(\.month)
        body += panel("MRR", csv: "mrr", range: range, chart: SVGChart(
            id: "mrr", title: "MRR by day", labels: days,
            series: report.currencies.enumerated().map { index, currency in
                .init(name: "MRR \(currency)", color: colors[index % colors.count], values: report.daily.map { Double($0.mrr[currency] ?? 0) / 1000 })
            },
            style: .line, format: { String(format: "%.2f", $0) }))
        body += panel("Active subscriptions and trials", csv: "active", range: range, chart: SVGChart(
            id: "active", title: "Active subscriptions and trials by day", labels: days,
            series: [
                .init(name: "Paid", color: colors[0], values: report.daily.map { Double($0.activePaid) }),
                .init(name: "Introductory trials", color: colors[1], values: report.daily.map { Double($0.activeTrials) }),
                .init(name: "App-managed trials", color: colors[2], values: report.daily.map { Double($0.activeAppTrials) }),
                .init(name: "Family-shared", color: colors[3], values: report.daily.map { Double($0.activeFamilyShared) }),
            ],
            style: .line))
        body += panel("Trials and conversion (by trial cohort)", csv: "trials", range: range, chart: SVGChart(
            id: "trials", title: "Trial starts and conversions by month", labels: months,
            series: [
                .init(name: "Introductory trials started", color: colors[0], values: report.months.map { Double($0.introTrialStarts) }),
                .init(name: "converted", color: colors[1], values: report.months.map { Double($0.introTrialConversions) }),
                .init(name: "App-managed trials started", color: colors[2], values: report.months.map { Double($0.appTrialStarts) }),
                .init(name: "converted", color: colors[3], values: report.months.map { Double($0.appTrialConversions) }),
            ],
            style: .bars))
        body += panel("Churn", csv: "churn", range: range, chart: SVGChart(
            id: "churn", title: "Churn rate by month (%)", labels: months,
            series: [.init(name: "Churn %", color: colors[4], values: report.months.map { ($0.churnRate ?? 0) * 100 })],
            style: .bars, format: { String(format: "%.1f", $0) }))
        body += panel("Refunds", csv: "refunds", range: range, chart: SVGChart(
            id: "refunds", title: "Refunds by month", labels: months,
            series: [.init(name: "Refunds", color: colors[4], values: report.months.map { Double($0.refunds) })],
            style: .bars))
        body += panel("Revenue", csv: "revenue", range: range, chart: SVGChart(
            id: "revenue", title: "Gross revenue by month", labels: months,
            series: report.currencies.enumerated().map { index, currency in
                .init(name: "Revenue \(currency)", color: colors[index % colors.count], values: report.months.map { Double($0.revenue[currency] ?? 0) / 1000 })
            },
            style: .bars, format: { String(format: "%.2f", $0) }))
        body += panel("Proceeds", csv: "proceeds", range: range, chart: SVGChart(
            id: "proceeds", title: "Proceeds by month (after refunds and Apple's commission, before taxes)", labels: months,
            series: report.currencies.enumerated().map { index, currency in
                .init(name: "Proceeds \(currency)", color: colors[index % colors.count], values: report.months.map { Double($0.proceeds[currency] ?? 0) / 1000 })
            },
            style: .bars, format: { String(format: "%.2f", $0) }))
        body += "</div>"
        body += reportingPanel(report)
        body += conversionPanel(report)

        var header = ["Month", "Active at start", "Active at end", "New paid", "Intro trials", "converted", "App trials", "converted",
                      "Expired", "Reactivated", "Churn", "Refunds", "Refund rate", "Renewal rate", "Recoveries"]
        header.append("Churn by period")
        header += report.currencies.flatMap { ["Revenue (\($0))", "Proceeds (\($0))", "ARPU (\($0))", "MRR (\($0))"] }
        let rows = report.months.map { m -> [String] in
            [
                m.month, HTML.count(m.activeAtStart), HTML.count(m.activeAtEnd), HTML.count(m.newPaid), HTML.count(m.introTrialStarts),
                "\(HTML.count(m.introTrialConversions)) (\(HTML.percent(m.introTrialConversionRate)))", HTML.count(m.appTrialStarts),
                "\(HTML.count(m.appTrialConversions)) (\(HTML.percent(m.appTrialConversionRate)))", HTML.count(m.expirations), HTML.count(m.reactivations),
                HTML.percent(m.churnRate), HTML.count(m.refunds), HTML.percent(m.refundRate), HTML.percent(m.renewalRate), HTML.count(m.billingRecoveries),
                HTML.escape(m.churnRateByPeriod.sorted { $0.key < $1.key }.map { "\($0.key) \(HTML.percent($0.value))" }.joined(separator: ", ")),
            ] + report.currencies.flatMap {
                [HTML.amount(m.revenue[$0] ?? 0), HTML.amount(m.proceeds[$0] ?? 0), HTML.amount(m.arpu[$0] ?? 0), HTML.amount(m.mrrAtEnd[$0] ?? 0)]
            }
        }
        body += "<section class=\"panel\"><h2>By month<a class=\"csv\" href=\"/dashboard/export/monthly.csv?\(range)\">CSV</a></h2>"
        body += DashboardLayout.table(id: "monthly", header: header, rows: rows) + "</section>"
        return DashboardLayout.page(title: "Overview", section: .overview, body: body)
    }

    static let checkNames = [
        "trial_conversion": "Introductory trial conversion", "app_trial_conversion": "App-managed trial conversion",
        "paywall_bounce": "Paywall bounce", "purchase_failure": "Purchase failures",
        "revenue_drop": "Revenue drop, yesterday against the week before", "payment_failure": "Payment failures",
    ]

    /// The report's amounts in the operator's reporting currency, saying which rates of which day.
    static func reportingPanel(_ report: AnalyticsReport) -> String {
        guard let reporting = report.reporting else { return "" }
        let currency = reporting.currency
        let rows = reporting.months.map { [$0.month, HTML.money($0.revenue, currency), HTML.money($0.refunded, currency), HTML.money($0.proceeds, currency), HTML.money($0.mrrAtEnd, currency)] }
        let missing = reporting.unconverted.isEmpty ? "" : "; no rate for \(HTML.escape(reporting.unconverted.joined(separator: ", "))), left out"
        return "<section class=\"panel\" data-reporting><h2>In \(HTML.escape(currency)) <span class=\"muted\">at the rates of \(HTML.escape(reporting.ratesDate))\(missing)</span></h2>"
            + "<div class=\"cards\">" + card("MRR (\(currency))", HTML.money(reporting.mrr, currency), metric: "reporting-mrr", value: reporting.mrr) + "</div>"
            + DashboardLayout.table(id: "reporting", header: ["Month", "Revenue", "Refunded", "Proceeds", "MRR at end"], rows: rows) + "</section>"
    }

    /// App-managed trial conversions by the product bought, and how many days into the trial.
    static func conversionPanel(_ report: AnalyticsReport) -> String {
        let products = Set(report.months.flatMap { $0.appTrialConversionsByProduct.keys }).sorted()
        guard !products.isEmpty else { return "" }
        let rows = report.months.map { month -> [String] in
            let total = month.appTrialConversions
            return [month.month, HTML.count(month.appTrialStarts)] + products.map { product in
                let count = month.appTrialConversionsByProduct[product] ?? 0
                return "\(HTML.count(count)) (\(HTML.percent(AnalyticsReport.rate(count, month.appTrialStarts))))"
            } + [HTML.count(total), month.appTrialMeanDaysToConvert.map { String(format: "%.1f", $0) } ?? "–"]
        }
        return "<section class=\"panel\" data-conversion><h2>App-managed trial conversion by product</h2>"
            + DashboardLayout.table(
                id: "conversion-by-product", header: ["Trial month", "Trials"] + products.map { "→ \($0)" } + ["Converted", "Mean days into trial"], rows: rows)
            + "</section>"
    }

    /// The business checks (docs/growth.md), with the thresholds the alert rules use.
    static func checksPanel(_ health: [(app: String, health: BusinessHealth)]) -> String {
        guard !health.isEmpty else { return "" }
        var rows: [[String]] = []
        var classes: [String?] = []
        for (app, entry) in health {
            for check in entry.checks {
                let name = (checkNames[check.check] ?? check.check) + (check.currency.map { " (\($0))" } ?? "")
                let comparison = check.check.hasSuffix("trial_conversion") ? "below" : "above"
                rows.append((health.count > 1 ? [HTML.escape(app)] : []) + [
                    HTML.escape(name), HTML.percent(check.value), "\(comparison) \(HTML.percent(check.threshold))",
                    check.firing ? "<strong class=\"error\" data-firing>alert</strong>" : check.value == nil ? "<span class=\"muted\">nothing to measure</span>" : "ok",
                    "<span class=\"muted\">\(HTML.escape(check.meaning))</span>",
                ])
                classes.append(check.firing ? "changed" : nil)
            }
        }
        let header = (health.count > 1 ? ["App"] : []) + ["Check", "Value", "Alerts when", "Status", "Measured as"]
        return "<section class=\"panel\" data-checks><h2>Business checks <span class=\"muted\">on \(HTML.escape(health[0].health.date))</span></h2>"
            + DashboardLayout.table(id: "checks", header: header, rows: rows, rowClasses: classes) + "</section>"
    }

    static func card(_ label: String, _ text: String, metric: String, value: Int64) -> String {
        "<div class=\"card\"><span>\(HTML.escape(label))</span><b data-metric=\"\(HTML.escape(metric))\" data-value=\"\(value)\">\(HTML.escape(text))</b></div>"
    }

    static func panel(_ title: String, csv: String, range: String, chart: SVGChart) -> String {
        "<section class=\"panel\"><h2>\(HTML.escape(title))<a class=\"csv\" href=\"/dashboard/export/\(csv).csv?\(range)\">CSV</a></h2>\(chart.render())</section>"
    }
}
