import EntitleAnalytics
import EntitleWire
import Foundation

/// The data behind each dashboard chart and table as CSV (RFC 4180: comma separated, CRLF line ends,
/// quoted when needed). Amounts are decimal units of their currency.
enum AnalyticsCSV {
    static let charts = ["mrr", "active", "trials", "churn", "refunds", "revenue", "proceeds", "monthly", "cohorts", "retention", "products", "entitlements", "storefronts"]

    static func render(_ chart: String, _ report: AnalyticsReport) -> String? {
        let currencies = report.currencies
        var rows: [[String]]
        switch chart {
        case "mrr":
            rows = [["date"] + currencies.map { "mrr_\($0)" }]
            rows += report.daily.map { point in [point.date] + currencies.map { amount(point.mrr[$0] ?? 0) } }
        case "active":
            rows = [["date", "active_paid", "active_trials", "active_app_trials", "active_family_shared"]]
            rows += report.daily.map { ["\($0.date)", "\($0.activePaid)", "\($0.activeTrials)", "\($0.activeAppTrials)", "\($0.activeFamilyShared)"] }
        case "trials":
            rows = [["month", "intro_trial_starts", "intro_trial_conversions", "intro_trial_conversion_rate", "app_trial_starts", "app_trial_conversions", "app_trial_conversion_rate"]]
            rows += report.months.map {
                [$0.month, "\($0.introTrialStarts)", "\($0.introTrialConversions)", rate($0.introTrialConversionRate), "\($0.appTrialStarts)",
                 "\($0.appTrialConversions)", rate($0.appTrialConversionRate)]
            }
        case "churn":
            rows = [["month", "active_at_start", "expirations", "reactivations", "churn_rate"]]
            rows += report.months.map { [$0.month, "\($0.activeAtStart)", "\($0.expirations)", "\($0.reactivations)", rate($0.churnRate)] }
        case "refunds":
            rows = [["month", "refunds", "paid_transactions", "refund_rate"] + currencies.map { "refunded_\($0)" }]
            rows += report.months.map { month in
                [month.month, "\(month.refunds)", "\(month.paidTransactions)", rate(month.refundRate)] + currencies.map { amount(month.refunded[$0] ?? 0) }
            }
        case "revenue":
            rows = [["month"] + currencies.flatMap { ["revenue_\($0)", "refunded_\($0)", "arpu_\($0)", "mrr_at_end_\($0)"] }]
            rows += report.months.map { month in
                [month.month] + currencies.flatMap {
                    [amount(month.revenue[$0] ?? 0), amount(month.refunded[$0] ?? 0), amount(month.arpu[$0] ?? 0), amount(month.mrrAtEnd[$0] ?? 0)]
                }
            }
        case "proceeds":
            rows = [["month"] + currencies.map { "proceeds_\($0)" } + (report.reporting.map { ["revenue_\($0.currency)", "proceeds_\($0.currency)", "rates_of"] } ?? [])]
            rows += report.months.enumerated().map { index, month in
                let converted = report.reporting.flatMap { $0.months[safe: index].map { [amount($0.revenue), amount($0.proceeds)] } } ?? []
                return [month.month] + currencies.map { amount(month.proceeds[$0] ?? 0) } + converted + (report.reporting.map { [$0.ratesDate] } ?? [])
            }
        case "retention":
            let width = report.retention.map(\.active.count).max() ?? 0
            rows = [["cohort", "customers"] + (0..<width).flatMap { ["active_month_\($0)", "retention_month_\($0)"] }]
            rows += report.retention.map { row in
                [row.cohort, "\(row.customers)"] + (0..<width).flatMap { column in
                    [row.active[safe: column].map { "\($0)" } ?? "", rate(row.retention[safe: column])]
                }
            }
        case "monthly":
            rows = [[
                "month", "active_at_start", "active_at_end", "new_paid", "intro_trial_starts", "intro_trial_conversions", "app_trial_starts",
                "app_trial_conversions", "expirations", "reactivations", "churn_rate", "refunds", "paid_transactions", "refund_rate",
                "renewal_opportunities", "renewals", "renewal_rate", "billing_recoveries",
            ] + currencies.flatMap { ["revenue_\($0)", "refunded_\($0)", "arpu_\($0)", "mrr_at_end_\($0)"] }]
            rows += report.months.map { m in
                [
                    m.month, "\(m.activeAtStart)", "\(m.activeAtEnd)", "\(m.newPaid)", "\(m.introTrialStarts)", "\(m.introTrialConversions)",
                    "\(m.appTrialStarts)", "\(m.appTrialConversions)", "\(m.expirations)", "\(m.reactivations)", rate(m.churnRate), "\(m.refunds)",
                    "\(m.paidTransactions)", rate(m.refundRate), "\(m.renewalOpportunities)", "\(m.renewals)", rate(m.renewalRate),
                    "\(m.billingRecoveries)",
                ] + currencies.flatMap {
                    [amount(m.revenue[$0] ?? 0), amount(m.refunded[$0] ?? 0), amount(m.arpu[$0] ?? 0), amount(m.mrrAtEnd[$0] ?? 0)]
                }
            }
        case "cohorts":
            let width = report.cohorts.flatMap { $0.lifetimeValue.values.map(\.count) }.max() ?? 0
            rows = [["cohort", "customers", "currency"] + (0..<width).map { "ltv_month_\($0)" }]
            for cohort in report.cohorts {
                if cohort.lifetimeValue.isEmpty { rows.append([cohort.cohort, "\(cohort.customers)", ""]) }
                for (currency, values) in cohort.lifetimeValue.sorted(by: { $0.key < $1.key }) {
                    rows.append([cohort.cohort, "\(cohort.customers)", currency] + values.map(amount))
                }
            }
        case "products":
            rows = [["product", "entitlements", "active_paid", "active_trials", "active_family_shared"] + currencies.map { "mrr_\($0)" }]
            rows += report.products.map { row in
                [row.product, row.entitlements.joined(separator: " "), "\(row.activePaid)", "\(row.activeTrials)", "\(row.activeFamilyShared)"]
                    + currencies.map { amount(row.mrr[$0] ?? 0) }
            }
        case "storefronts":
            rows = [["storefront", "new_paid"] + currencies.flatMap { ["revenue_\($0)", "proceeds_\($0)"] }]
            rows += report.storefronts.map { row in
                [row.storefront, "\(row.newPaid)"] + currencies.flatMap { [amount(row.revenue[$0] ?? 0), amount(row.proceeds[$0] ?? 0)] }
            }
        case "entitlements":
            rows = [["entitlement", "active_paid", "active_trials", "active_family_shared"] + currencies.map { "mrr_\($0)" }]
            rows += report.entitlements.map { row in
                [row.entitlement, "\(row.activePaid)", "\(row.activeTrials)", "\(row.activeFamilyShared)"] + currencies.map { amount(row.mrr[$0] ?? 0) }
            }
        default:
            return nil
        }
        return rows.map { $0.map(field).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
    }

    static func amount(_ milliunits: Int64) -> String {
        let sign = milliunits < 0 ? "-" : ""
        let absolute = milliunits.magnitude
        return "\(sign)\(absolute / 1000).\(String(format: "%03d", Int(absolute % 1000)))"
    }

    static func rate(_ value: Double?) -> String { value.map { String(format: "%.4f", $0) } ?? "" }

    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || text.hasPrefix("=") || text.hasPrefix("+") || text.hasPrefix("@")
        else { return text }
        // Quoted, and a leading formula character neutralised so spreadsheets don't evaluate it.
        let neutral = text.hasPrefix("=") || text.hasPrefix("+") || text.hasPrefix("@") ? "'" + text : text
        return "\"" + neutral.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
