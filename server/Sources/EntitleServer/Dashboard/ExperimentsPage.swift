import EntitleAnalytics
import EntitleCore
import EntitleWire
import Foundation

/// `/dashboard/experiments`: each experiment's variants and results against the control, with the
/// buttons that start, pause, stop or roll it out (docs/growth.md).
enum ExperimentsPage {
    static func render(_ experiments: [(Experiment, ExperimentReport)]) -> String {
        var body = """
            <h1>Experiments</h1>
            <p class="muted">Each variant against the control (the first): paid conversion within the revenue window, with its 95% interval
            (two-proportion z-test) and the chance the variant is better; revenue per exposed subscriber (Welch's t-test). Create experiments with
            <code>POST /v1/experiments</code> or <code>entitle experiments create</code>.</p>
            """
        if experiments.isEmpty { body += "<p class=\"muted\" data-empty>No experiments yet.</p>" }
        for (experiment, report) in experiments {
            body += panel(experiment, report)
        }
        return DashboardLayout.page(title: "Experiments", section: .experiments, body: body)
    }

    static func panel(_ experiment: Experiment, _ report: ExperimentReport) -> String {
        let id = HTML.escape(experiment.id)
        let path = "/dashboard/experiments/" + (experiment.id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        var html = "<section class=\"panel\" data-experiment=\"\(id)\"><h2>\(HTML.escape(experiment.name ?? experiment.id))"
        html += " <span class=\"muted\">\(id) · <span data-state>\(HTML.escape(experiment.state.rawValue.replacingOccurrences(of: "_", with: " ")))</span>"
        if let variant = experiment.rolledOutVariantID { html += " · \(HTML.escape(variant))" }
        html += " · revenue over \(experiment.revenueWindowDays) days</span></h2>"
        var actions: [String] = []
        for (state, label, action) in [(ExperimentState.running, experiment.state == .paused ? "Resume" : "Start", "start"), (.paused, "Pause", "pause"), (.stopped, "Stop", "stop")]
        where experiment.state.next.contains(state) {
            actions.append("<form class=\"inline\" method=\"post\" action=\"\(path)/\(action)\"><button type=\"submit\" data-action=\"\(action)\">\(label)</button></form>")
        }
        if experiment.state.next.contains(.rolledOut) {
            for variant in experiment.variants {
                actions.append("""
                    <form class="inline" method="post" action="\(path)/rollout"><input type="hidden" name="variant" value="\(HTML.escape(variant.id))">\
                    <button type="submit" data-action="rollout">Roll out \(HTML.escape(variant.id))</button></form>
                    """)
            }
        }
        if !actions.isEmpty { html += "<div class=\"cards\">" + actions.joined() + "</div>" }
        let weights = Dictionary(experiment.variants.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var header = ["Variant", "Offering", "Weight", "Exposed", "Trials", "Paid", "Paid vs control (95%)", "Chance to beat control", "Sample needed"]
        header += report.currencies.flatMap { ["Revenue / exposed (\($0))", "vs control (95%)"] }
        header += ["Renewed"]
        let rows = report.variants.map { result -> [String] in
            let paid = result.paidComparison
            var row = [
                HTML.escape(result.variantID), HTML.escape(weights[result.variantID]?.offeringID ?? ""), "\(weights[result.variantID]?.weight ?? 0)",
                HTML.count(result.exposed), "\(HTML.count(result.trials)) (\(HTML.percent(result.trialRate)))",
                "\(HTML.count(result.paid)) (\(HTML.percent(result.paidRate)))",
                paid.map { points($0) } ?? "<span class=\"muted\">control</span>",
                paid.map { HTML.percent($0.chanceToBeatControl) } ?? "", paid?.sampleNeededPerVariant.map { HTML.count(Int64($0)) } ?? "",
            ]
            for currency in report.currencies {
                row.append(HTML.amount(Int64(((result.revenuePerExposed[currency] ?? 0)).rounded())))
                row.append(result.revenueComparison[currency].map { String(format: "%+.2f [%+.2f, %+.2f]", $0.difference / 1000, $0.lower / 1000, $0.upper / 1000) } ?? "")
            }
            row.append("\(HTML.count(result.renewals)) of \(HTML.count(result.renewalOpportunities)) (\(HTML.percent(result.renewalRate)))")
            return row
        }
        html += DashboardLayout.table(id: "experiment-\(experiment.id)", header: header, rows: rows)
        return html + "</section>"
    }

    /// A difference of proportions in points, with its interval: "+12.4 [+3.7, +21.1]".
    static func points(_ comparison: Comparison) -> String {
        String(format: "%+.1f [%+.1f, %+.1f] pts", comparison.difference * 100, comparison.lower * 100, comparison.upper * 100)
    }
}
