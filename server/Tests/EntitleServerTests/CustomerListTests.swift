import EntitleCore
import EntitleServer
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import LocalAppStore
import NIOCore
import Testing

/// `GET /v1/subscribers`: the customer list, filtered and paged, as JSON and CSV, on both databases.
@Suite("Customer list")
struct CustomerListTests {
    static let individual = "com.screentimerewards.individual.monthly"
    static let family = "com.screentimerewards.family.monthly"
    static func day(_ n: Double) -> Date { ReferenceTime.day(n) }

    /// Five customers on day 10.5: `a-paid` (Individual), `b-trial` (the app's trial only), `c-refunded`
    /// (Family, refunded), `d-family` (Family), `e-grace` (Individual since day -21, whose renewal on day 10
    /// failed into Apple's billing grace).
    static func populate(_ harness: ServerHarness, _ client: any TestClientProtocol) async throws {
        var store = harness.localStore()
        _ = try await harness.buy(client, &store, individual, as: "a-paid", at: day(0))
        try await harness.post(client, "/v1/subscribers/b-trial/trial", key: harness.publicKey("b-trial"), body: ServerHarness.json([String: String]()))
        let refunded = try await harness.buy(client, &store, family, as: "c-refunded", at: day(1))
        try await harness.deliver(client, store.refund(refunded.originalTransactionID, at: day(3)))
        _ = try await harness.buy(client, &store, family, as: "d-family", at: day(2))
        harness.clock.set(day(-21))
        let graced = try await harness.buy(client, &store, individual, as: "e-grace", at: day(-21))
        harness.clock.set(day(10.5))
        try await harness.deliver(client, store.failRenewal(graced.originalTransactionID, at: day(10)))
    }

    static func list(_ harness: ServerHarness, _ client: any TestClientProtocol, _ query: String) async throws -> SubscriberListResponse {
        try ServerHarness.decode(SubscriberListResponse.self, try await harness.get(client, "/v1/subscribers?\(query)", key: ServerHarness.secretKey))
    }

    @Test("each filter admits the customers it names, resolved as their answers are", arguments: StorageEngine.databases)
    func filters(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            try await Self.populate(harness, client)
            func ids(_ query: String) async throws -> [String] { try await Self.list(harness, client, query).subscribers.map(\.appUserID) }
            #expect(try await ids("") == ["a-paid", "b-trial", "c-refunded", "d-family", "e-grace"])
            #expect(try await ids("state=active") == ["a-paid", "d-family"])
            #expect(try await ids("product=\(Self.family)") == ["c-refunded", "d-family"])
            #expect(try await ids("state=active&product=\(Self.family)") == ["d-family"], "state and product of one purchase")
            #expect(try await ids("refunded=true") == ["c-refunded"])
            #expect(try await ids("trial=true") == ["b-trial"])
            #expect(try await ids("grace=true") == ["e-grace"])
            #expect(try await ids("entitlement=family") == ["b-trial", "d-family"], "the app's trial grants Family")
            #expect(try await ids("storefront=USA&refunded=false").count == 3)
            #expect(try await ids("firstSeenFrom=2026-01-06&firstSeenBefore=2026-01-07") == ["c-refunded"])
            let paid = try #require(try await Self.list(harness, client, "state=active").subscribers.first)
            #expect(paid.purchases.first?.storefront == "USA" && paid.activeEntitlements == ["individual"] && paid.lastVerifiedAt != nil)
        }
    }

    @Test("pages follow the cursor to the end, each customer once; a short scan budget returns short pages with a cursor")
    func paging() async throws {
        try await ServerHarness.run { harness, client in
            try await Self.populate(harness, client)
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try await Self.list(harness, client, "limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""))
                #expect(page.subscribers.count <= 2)
                seen += page.subscribers.map(\.appUserID)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen == ["a-paid", "b-trial", "c-refunded", "d-family", "e-grace"])

            let service = harness.service()
            let short = try await service.customers.page(SubscriberFilter(inGrace: true), after: nil, limit: 10, scanBudget: 2)
            #expect(short.subscribers.isEmpty && short.scanned == 2 && short.nextCursor != nil, "read 2, none in grace yet: not the end")
            var rest = short
            while let next = rest.nextCursor, rest.subscribers.isEmpty {
                rest = try await service.customers.page(SubscriberFilter(inGrace: true), after: next, limit: 10, scanBudget: 2)
            }
            #expect(rest.subscribers.map(\.appUserID) == ["e-grace"])
        }
    }

    @Test("the CSV holds every customer the filter admits, one row each, under its header")
    func csv() async throws {
        try await ServerHarness.run { harness, client in
            try await Self.populate(harness, client)
            let response = try await harness.get(client, "/v1/subscribers?format=csv&refunded=false", key: ServerHarness.secretKey)
            #expect(response.headers[.contentType] == "text/csv; charset=utf-8")
            let lines = String(buffer: response.body).split(separator: "\r\n").map(String.init)
            #expect(lines.first == "app_user_id,first_seen_at,active_entitlements,products,states,storefronts,in_trial,in_grace,refunded,last_verified_at,anomalies")
            #expect(lines.dropFirst().map { String($0.prefix { $0 != "," }) } == ["a-paid", "b-trial", "d-family", "e-grace"])
            #expect(lines.contains { $0.hasPrefix("e-grace,") && $0.contains(",grace_period,USA,false,true,false,") })
        }
    }

    @Test("bad parameters are refused with request.invalid; the list needs a secret key", arguments: [
        "state=bogus", "product=com.other", "entitlement=gold", "storefront=usa", "trial=yes", "firstSeenFrom=March",
        "firstSeenFrom=2026-13-01", "limit=0", "limit=1001", "limit=ten", "cursor=%FF%FE", "format=xml",
    ])
    func badParameters(query: String) async throws {
        try await ServerHarness.run { harness, client in
            let response = try await harness.get(client, "/v1/subscribers?\(query)", key: ServerHarness.secretKey, expect: .badRequest)
            #expect(ServerHarness.errorCode(response) == "request.invalid")
            _ = try await harness.get(client, "/v1/subscribers", key: harness.publicKey("a-paid"), expect: .forbidden)
        }
    }
}
