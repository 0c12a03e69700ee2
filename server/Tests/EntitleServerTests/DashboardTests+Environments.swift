import AppStoreModels
import EntitleAnalytics
import EntitleCore
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

extension DashboardTests {
    /// A tester's purchase: a month of Family in Apple's sandbox, bought on Feb 3.
    static func testerEvents() -> [LedgerEvent] {
        let start = AnalyticsLedger.at("2026-02-03T09:00:00Z")
        let transaction = AppleFacts(bundleID: "com.screentimerewards.app", environment: .sandbox).subscription(
            AnalyticsLedger.family, original: "TESTER", id: "TESTER1", purchase: start, expires: ISODuration(months: 1).added(to: start), price: 12_990)
        return [LedgerEvents.appTransaction(88_001, appUserID: "tester", transaction)]
    }

    @Test("an app that accepts Production reports real customers by default; a tester's sandbox purchase counts only when asked for")
    func productionByDefault() async throws {
        try await ServerHarness.run(environments: [.production, .sandbox]) { harness, client in
            for event in AnalyticsLedger.events + Self.testerEvents() { _ = try await harness.store.append(event) }
            harness.clock.set(AnalyticsLedger.at("2026-04-01T08:00:00Z"))
            func report(_ query: String) async throws -> AnalyticsReport {
                try ServerHarness.decode(
                    AnalyticsReport.self, try await harness.get(client, "/v1/analytics/overview?\(Self.range)\(query)", key: ServerHarness.secretKey))
            }
            let contributor = AnalyticsContributor(catalog: harness.catalog)
            var customers = AnalyticsCells()
            for user in Set(AnalyticsLedger.events.compactMap(\.appUserID)) {
                customers.add(contributor.cells(appUserID: user, events: AnalyticsLedger.events.filter { $0.appUserID == user }))
            }
            let first = AnalyticsCalendar.day(of: AnalyticsLedger.at("2026-01-01T00:00:00Z"))
            var expected = AnalyticsReport(cells: customers, catalog: harness.catalog, from: first, to: first + 89)
            expected.environment = .production

            let production = try await report("")
            #expect(production == expected)
            #expect(try await report("&environment=production") == expected)
            let sandbox = try await report("&environment=sandbox")
            #expect(sandbox.environment == .sandbox)
            #expect(sandbox.months.map(\.newPaid) == [0, 1, 0])
            #expect(sandbox.months[1].revenue == ["USD": 12_990])
            let all = try await report("&environment=all")
            #expect(all.months.map(\.newPaid) == zip(production.months, sandbox.months).map { $0.newPaid + $1.newPaid })
            #expect(all.months[1].revenue["USD"] == (production.months[1].revenue["USD"] ?? 0) + 12_990)

            let refused = try await harness.get(
                client, "/v1/analytics/overview?environment=staging", key: ServerHarness.secretKey, expect: .badRequest)
            #expect(String(buffer: refused.body).contains("environment is production, sandbox or all"))
            let funnels = try ServerHarness.decode(
                FunnelReport.self, try await harness.get(client, "/v1/analytics/funnels?environment=sandbox", key: ServerHarness.secretKey))
            #expect(funnels.environment == .sandbox)
            let csv = String(buffer: try await harness.get(
                client, "/v1/analytics/export/revenue?\(Self.range)&environment=sandbox", key: ServerHarness.secretKey).body)
            #expect(csv.split(separator: "\r\n").map { $0.split(separator: ",").prefix(2).joined(separator: ",") }
                == ["month,revenue_USD", "2026-01,0.000", "2026-02,12.990", "2026-03,0.000"])

            // The dashboard says whose figures, links to the others, and its CSV links keep the choice.
            let cookie = try #require(Self.sessionCookie(try await signIn(client)))
            let overview = String(buffer: try await page(client, "/dashboard?\(Self.range)", cookie: cookie).body)
            #expect(overview.contains(#"<strong data-environment="production">Customers (Production)</strong>"#))
            #expect(overview.contains(#"<a href="/dashboard?from=2026-01-01&amp;to=2026-03-31&amp;environment=sandbox">Testers (Sandbox)</a>"#))
            let testers = String(buffer: try await page(client, "/dashboard/products?\(Self.range)&environment=sandbox", cookie: cookie).body)
            #expect(testers.contains(#"<strong data-environment="sandbox">"#))
            #expect(testers.contains("/dashboard/export/products.csv?from=2026-01-01&amp;to=2026-03-31&amp;environment=sandbox"))
        }
    }

    @Test("an app that accepts only test environments (a local demo) reports everyone by default")
    func everyoneWithoutProduction() async throws {
        try await ServerHarness.run { harness, client in
            for event in Self.testerEvents() { _ = try await harness.store.append(event) }
            harness.clock.set(AnalyticsLedger.at("2026-04-01T08:00:00Z"))
            let report = try ServerHarness.decode(
                AnalyticsReport.self, try await harness.get(client, "/v1/analytics/overview?\(Self.range)", key: ServerHarness.secretKey))
            #expect(report.environment == .all)
            #expect(report.months.map(\.newPaid) == [0, 1, 0])
        }
    }
}
