import EntitleCore
import EntitleWire
import Foundation
import LocalAppStore

extension DemoSimulation {
    /// The app's KPIs, policies and a customer's reminders, read from the API once the population has
    /// played: what a person running the app would look at first.
    func businessSummary() async -> String {
        var lines: [String] = []
        // The last whole month (the current one has only begun).
        if let report = await decoded(AnalyticsReport.self, "/v1/analytics/overview"), let month = report.months.dropLast().last ?? report.months.last {
            func money(_ amounts: [String: Int64]) -> String {
                amounts.isEmpty ? "0" : amounts.sorted { $0.key < $1.key }.map { Self.money($0.value, $0.key) }.joined(separator: ", ")
            }
            func percent(_ value: Double?) -> String { value.map { String(format: "%.1f%%", $0 * 100) } ?? "–" }
            var line = "  KPIs of \(month.month) (GET /v1/analytics/overview): MRR \(money(report.current.mrr)), revenue \(money(month.revenue)), "
                + "proceeds \(money(month.proceeds)), churn \(percent(month.churnRate))"
            if !month.churnRateByPeriod.isEmpty {
                line += " (" + month.churnRateByPeriod.sorted { $0.key < $1.key }.map { "\($0.key) \(percent($0.value))" }.joined(separator: ", ") + ")"
            }
            line += ", introductory trials converted \(percent(month.introTrialConversionRate)), app trials \(percent(month.appTrialConversionRate))"
            if !month.appTrialConversionsByProduct.isEmpty {
                line += " (" + month.appTrialConversionsByProduct.sorted { $0.key < $1.key }.map { "→ \($0.key) \($0.value)" }.joined(separator: ", ")
                line += month.appTrialMeanDaysToConvert.map { String(format: "; %.1f days into the trial", $0) } ?? ""
                line += ")"
            }
            lines.append(line)
            // Retention over every cohort old enough: month k's active over those cohorts' customers.
            let retained = [1, 3, 6].compactMap { k -> String? in
                let cohorts = report.retention.filter { $0.active.count > k }
                let customers = cohorts.reduce(Int64(0)) { $0 + $1.customers }
                guard customers > 0 else { return nil }
                let active = cohorts.reduce(Int64(0)) { $0 + $1.active[k] }
                return String(format: "month %d %.1f%% (churn %.1f%%)", k, Double(active) / Double(customers) * 100, 100 - Double(active) / Double(customers) * 100)
            }
            if !retained.isEmpty { lines.append("  retention by first paid month, every cohort old enough: " + retained.joined(separator: ", ")) }
        }
        lines.append("  policies     " + Self.policies(store.catalog))
        if let example = await reminderExample() { lines.append(example) }
        return lines.joined(separator: "\n")
    }

    /// The catalog's choices where they differ from Apple, and its app-managed trial.
    static func policies(_ catalog: Catalog) -> String {
        var parts = [catalog.policies.billingRetryAccess ? "billing retry keeps access (with a warning, up to 60 days)" : "billing retry: no access (Apple's)"]
        if let trial = catalog.appTrial {
            var text = "app-managed trial \(trial.length)"
            if let grace = trial.grace { text += " + \(grace) of warning days" + (trial.graceAfterSubscriptionExpiry ? ", also after a subscription ends" : "") }
            parts.append(text)
        }
        if let hours = catalog.policies.provisionalGrantHours { parts.append("a purchase the server couldn't confirm grants for \(hours) h") }
        if catalog.smallBusinessProgram { parts.append("Small Business Program (proceeds 85%)") }
        return parts.joined(separator: "; ")
    }

    /// One customer's reminders still ahead, as the app would schedule them: someone in the app's trial,
    /// else in grace, else with an active subscription.
    func reminderExample() async -> String? {
        for filter in ["trial=true", "grace=true", "state=active"] {
            guard let list = await decoded(SubscriberListResponse.self, "/v1/subscribers?\(filter)&limit=20") else { continue }
            for candidate in list.subscribers {
                let path = "/v1/subscribers/\(candidate.appUserID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? candidate.appUserID)"
                guard let answer = await decoded(SubscriberResponse.self, path), !answer.reminders.isEmpty else { continue }
                let shown = answer.reminders.prefix(4).map { "\($0.kind) \($0.dueAt.formatted(.iso8601.year().month().day())) (\($0.daysLeft) days left)" }
                let more = answer.reminders.count > 4 ? " and \(answer.reminders.count - 4) more" : ""
                return "  reminders    \(candidate.appUserID) (GET \(path), `reminders`): " + shown.joined(separator: ", ") + more
            }
        }
        return nil
    }

    /// `path`'s answer decoded, or `nil` when the call or the decoding fails.
    func decoded<T: Decodable>(_ type: T.Type, _ path: String) async -> T? {
        guard let data = try? await admin("GET", path, body: nil, expect: 200) else { return nil }
        return try? WireJSON.decoder.decode(type, from: data)
    }

    /// Milliunits as `12.34 USD`.
    static func money(_ milliunits: Int64, _ currency: String) -> String {
        let sign = milliunits < 0 ? "-" : ""
        let magnitude = milliunits.magnitude
        return "\(sign)\(magnitude / 1000).\(String(format: "%02d", Int(magnitude % 1000 / 10))) \(currency)"
    }
}
