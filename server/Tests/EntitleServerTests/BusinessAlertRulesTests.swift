import EntitleAnalytics
import EntitleCore
@testable import EntitleServer
import EntitleTestSupport
import Foundation
import Testing

/// The business alerts from a ledger's events to Prometheus' verdict: the checks computed from the
/// subscribers' cells, exported as `/metrics` exports them, then evaluated by `promtool` against the
/// shipped rules (docs/prometheus/entitle-alerts.yml). The test command installs promtool.
private let promtoolPath = ["/usr/bin/promtool", "/usr/local/bin/promtool"].first { FileManager.default.isExecutableFile(atPath: $0) }

@Suite("Business alert rules", .enabled(if: promtoolPath != nil, "promtool is not installed (scripts/test.sh installs it)"))
struct BusinessAlertRulesTests {
    static let app = "com.screentimerewards.app"
    static let today = AnalyticsCalendar.day(of: ReferenceTime.instant("2026-06-30T12:00:00Z"))

    /// The `entitle_business_check…` samples `/metrics` exports for `TrialPopulation`.
    static func samples(appConverted: Int) -> [(series: String, value: String)] {
        let contributor = AnalyticsContributor(catalog: Fixtures.exampleCatalog("ScreenTimeRewards"))
        var cells = AnalyticsCells()
        let now = AnalyticsCalendar.start(ofDay: today).addingTimeInterval(12 * 3_600)
        for (user, events) in TrialPopulation.subscribers(now: now, appConverted: appConverted) {
            cells.add(contributor.cells(appUserID: user, events: events))
        }
        let metrics = ServerMetrics()
        metrics.recordBusinessHealth(app: BundleID(app), BusinessHealth(cells: cells, thresholds: .seeds, today: today))
        return metrics.render().split(separator: "\n").compactMap { line in
            guard line.hasPrefix("entitle_business_check"), let space = line.lastIndex(of: " ") else { return nil }
            return (String(line[..<space]), String(line[line.index(after: space)...]))
        }
    }

    /// Runs promtool's unit test of the shipped rules on `samples` held for seven hours, expecting
    /// `expected` (alert YAML items) from `EntitleTrialConversionLow`; its output when it disagrees.
    static func promtool(_ samples: [(series: String, value: String)], expected: String) async throws -> (passed: Bool, output: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let rules = Fixtures.repository.appendingPathComponent("docs/prometheus/entitle-alerts.yml").path
        var yaml = "rule_files:\n  - \(rules)\nevaluation_interval: 1m\ntests:\n  - interval: 5m\n    input_series:\n"
        for sample in samples {
            yaml += "      - series: '\(sample.series)'\n        values: '\(sample.value)x100'\n"
        }
        yaml += "    alert_rule_test:\n      - eval_time: 7h\n        alertname: EntitleTrialConversionLow\n        exp_alerts:\(expected)\n"
        let file = folder.appendingPathComponent("test.yml")
        try Data(yaml.utf8).write(to: file)
        let process = try ChildProcess(
            URL(fileURLWithPath: try #require(promtoolPath)), ["test", "rules", file.path], standardOutput: .captured, standardError: .captured)
        let (termination, out, err) = await process.output()
        return (termination == ChildProcess.Termination(status: 0, signalled: false), String(decoding: out + err, as: UTF8.self))
    }

    @Test("a healthy app whose 14-day and 30-day trials are still running: the exported checks raise no trial alert")
    func healthyTrialsRaiseNothing() async throws {
        let samples = Self.samples(appConverted: 6)
        #expect(samples.contains { $0.series.contains(#"check="app_trial_conversion""#) && $0.series.hasPrefix("entitle_business_check_ratio") })
        let run = try await Self.promtool(samples, expected: " []")
        #expect(run.passed, "\(run.output)")
    }

    @Test("app-managed trials that ended unconverted (1 of 20) raise the alert, labelled with their check")
    func lowAppTrialConversionAlerts() async throws {
        let expected = """

                  - exp_labels: {severity: ticket, app: \(Self.app), check: app_trial_conversion}
                    exp_annotations: {summary: "Only 5% of \(Self.app)'s trials that ended in the last 30 days converted to paid (app_trial_conversion)"}
        """
        let run = try await Self.promtool(Self.samples(appConverted: 1), expected: expected)
        #expect(run.passed, "\(run.output)")
    }
}
