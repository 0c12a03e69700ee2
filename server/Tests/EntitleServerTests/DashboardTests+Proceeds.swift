import EntitleServer
import EntitleTestSupport
import Foundation
import HummingbirdTesting
import NIOCore
import Testing

extension DashboardTests {
    @Test("the overview charts proceeds and converts app-managed trials by product; the cohorts page shows retention by first paid month; the products page storefronts; each as CSV")
    func proceedsAndRetention() async throws {
        try await withLedger { _, client in
            let cookie = try #require(Self.sessionCookie(try await signIn(client)))
            let overview = String(buffer: try await page(client, "/dashboard?\(Self.range)", cookie: cookie).body)
            #expect(overview.contains(#"<svg class="chart" data-chart="proceeds""#))
            let chart = try #require(overview.firstRange(of: #"data-chart="proceeds""#).map { String(overview[$0.lowerBound...].prefix(4_000)) })
            #expect(chart.contains(#"data-label="2026-01" data-value="20.28""#) && chart.contains(#"data-label="2026-03" data-value="5.59""#))
            #expect(overview.contains("<section class=\"panel\" data-conversion>"))
            #expect(overview.contains("<td>P1M 50.0%</td>"))
            let cohorts = String(buffer: try await page(client, "/dashboard/cohorts?\(Self.range)", cookie: cookie).body)
            let january = try #require(cohorts.firstRange(of: "<td>2026-01</td><td>2</td>").map { String(cohorts[$0.lowerBound...].prefix(while: { $0 != "\n" })) })
            #expect(january.matches(of: />([0-9.]+%)<\/td>/).map { String($0.output.1) }.prefix(3) == ["100.0%", "100.0%", "50.0%"])
            let retention = String(buffer: try await page(client, "/dashboard/export/retention.csv?\(Self.range)", cookie: cookie).body)
            #expect(retention.split(separator: "\r\n").dropFirst().first == "2026-01,2,2,1.0000,2,1.0000,1,0.5000")
            let proceeds = String(buffer: try await page(client, "/dashboard/export/proceeds.csv?\(Self.range)", cookie: cookie).body)
            #expect(proceeds.split(separator: "\r\n").map(String.init) == ["month,proceeds_USD", "2026-01,20.279", "2026-02,14.686", "2026-03,5.593"])
            let products = String(buffer: try await page(client, "/dashboard/products?\(Self.range)", cookie: cookie).body)
            #expect(products.contains("<td>USA</td><td>3</td><td>70.93</td><td>40.56</td>"))
            let storefronts = String(buffer: try await page(client, "/dashboard/export/storefronts.csv?\(Self.range)", cookie: cookie).body)
            #expect(storefronts.split(separator: "\r\n").map(String.init) == ["storefront,new_paid,revenue_USD,proceeds_USD", "USA,3,70.930,40.558"])
        }
    }
}
