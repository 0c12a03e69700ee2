import EntitleServer
import EntitleTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

extension DashboardTests {
    @Test("the customers page lists every customer the form's filter admits, pages by cursor, and downloads the same list as CSV")
    func customersPage() async throws {
        try await withLedger { _, client in
            let cookie = try #require(Self.sessionCookie(try await signIn(client)))
            func listed(_ query: String) async throws -> (names: [String], html: String) {
                let html = String(buffer: try await page(client, "/dashboard/customers\(query)", cookie: cookie).body)
                return (html.matches(of: /<tr><td><a href="\/dashboard\/subscribers\/[^"]*">([^<]*)<\/a><\/td>/).map { String($0.output.1) }, html)
            }
            #expect(try await listed("").names == ["alice", "bob", "carol", "dan", "erin"])
            let refunded = try await listed("?refunded=true&state=&product=")
            #expect(refunded.names == ["carol"])
            #expect(refunded.html.contains("<option value=\"true\" selected>yes</option>"))
            #expect(try await listed("?state=active").names == ["alice"])
            #expect(try await listed("?firstSeenFrom=2026-01-20&firstSeenBefore=2026-03-02").names == ["carol", "dan", "erin"])
            let refusal = try await page(client, "/dashboard/customers?storefront=%3Cb%3E", cookie: cookie)
            #expect(refusal.status == .badRequest && !String(buffer: refusal.body).contains("<b>"))

            let csv = try await page(client, "/dashboard/export/customers.csv?refunded=false", cookie: cookie)
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
            let rows = String(buffer: csv.body).split(separator: "\r\n").dropFirst().map { String($0.prefix { $0 != "," }) }
            #expect(rows == ["alice", "bob", "dan", "erin"])
        }
    }
}
