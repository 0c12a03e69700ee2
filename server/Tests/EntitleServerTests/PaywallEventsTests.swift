import EntitleCore
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// `POST /v1/subscribers/{id}/paywall-events`: what the app's paywall did, on the ledger, once each.
@Suite("Paywall events")
struct PaywallEventsTests {
    static let family = "com.screentimerewards.family.monthly"

    static func event(
        _ kind: PaywallEventKind, at: Date, offering: String = Catalog.standardOfferingID, product: String? = nil, outcome: String? = nil
    ) -> PaywallEvent {
        PaywallEvent(
            id: UUID(), kind: kind, at: at, offeringID: offering, paywallID: "upgrade-sheet", trigger: "limit_exceeded", feature: "childDevices",
            productID: product.map { ProductID($0) }, outcome: outcome)
    }

    static func paywallEvents(_ store: any LedgerStore, _ user: AppUserID) async throws -> [PaywallEvent] {
        try await store.events(appUserID: user).compactMap { event in
            if case .paywall(let paywall) = event.payload { paywall } else { nil }
        }
    }

    @Test("a report is stored as ledger events, each once by its ID, and grants nothing", arguments: StorageEngine.databases)
    func stored(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let at = harness.clock.now
            let events = [
                Self.event(.shown, at: at), Self.event(.purchaseStarted, at: at, product: Self.family),
                Self.event(.purchaseFailed, at: at, product: Self.family, outcome: "purchase.network"), Self.event(.closed, at: at),
            ]
            let path = "/v1/subscribers/parent/paywall-events"
            let key = harness.publicKey("parent")
            let first = try ServerHarness.decode(
                PaywallEventsResponse.self, try await harness.post(client, path, key: key, body: ServerHarness.json(PaywallEventsRequest(events: events))))
            #expect(first == PaywallEventsResponse(recorded: 4, duplicates: 0))
            let later = Self.event(.shown, at: at)
            let again = try ServerHarness.decode(
                PaywallEventsResponse.self,
                try await harness.post(client, path, key: key, body: ServerHarness.json(PaywallEventsRequest(events: Array(events.prefix(2)) + [later]))))
            #expect(again == PaywallEventsResponse(recorded: 1, duplicates: 2))
            let stored = try await Self.paywallEvents(harness.store, "parent")
            #expect(stored == events + [later])
            let subscriber = try ServerHarness.decode(SubscriberResponse.self, try await harness.get(client, "/v1/subscribers/parent", key: key))
            #expect(subscriber.entitlements.filter(\.isActive).isEmpty)
        }
    }

    @Test("a report that breaks a rule is refused whole with its code, and stores nothing")
    func refused() async throws {
        try await ServerHarness.run { harness, client in
            let at = harness.clock.now
            let path = "/v1/subscribers/parent/paywall-events"
            let key = harness.publicKey("parent")
            let shown = Self.event(.shown, at: at)
            let cases: [([PaywallEvent], String)] = [
                ([shown, Self.event(.shown, at: at, offering: "black-friday")], "paywall.unknownOffering"),
                ([shown, Self.event(.purchaseStarted, at: at, product: "com.other.app.product")], "purchase.unknownProduct"),
                ([shown, Self.event(.purchaseStarted, at: at)], "paywall.invalidEvent"),
                ([shown, Self.event(.purchaseFailed, at: at, product: Self.family)], "paywall.invalidEvent"),
                ([shown, Self.event(.shown, at: at.addingTimeInterval(3_600))], "paywall.invalidEvent"),
                ([shown, shown], "paywall.invalidEvent"),
                ([], "paywall.invalidEvent"),
                ((0...PaywallEvent.maximumBatch).map { _ in Self.event(.shown, at: at) }, "paywall.invalidEvent"),
            ]
            for (events, code) in cases {
                let response = try await harness.post(
                    client, path, key: key, body: ServerHarness.json(PaywallEventsRequest(events: events)), expect: .badRequest)
                #expect(ServerHarness.errorCode(response) == code, "\(events.map(\.kind))")
            }
            #expect(try await Self.paywallEvents(harness.store, "parent").isEmpty)
        }
    }
}
