import AppStoreModels
import EntitleCore
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import LocalAppStore
import NIOCore
import Testing

/// One Apple account's purchase restored onto account after account: each claim recorded on its holder,
/// the holder flagged from the third other account, one `anomaly_flagged` webhook, the dashboard's flag.
@Suite("Anomaly flags")
struct AnomalyFlagTests {
    @Test("a purchase restored onto three other accounts flags its holder, under either restore policy; one webhook; the dashboard shows it",
          arguments: [RestorePolicy.transferToNewest, .keepWithOriginal])
    func sharedPurchase(policy: RestorePolicy) async throws {
        try await ServerHarness.run(restorePolicy: policy) { harness, client in
            let service = harness.service()
            harness.clock.set(ReferenceTime.day(1))
            try await service.webhooks.webhookStore.addEndpoint(
                WebhookDeliveryTests.endpoint(URL(string: "http://127.0.0.1:9/hook")!, app: harness.bundleID, at: harness.clock.now, types: ["anomaly_flagged"]))
            var store = harness.localStore()
            let bought = try store.purchase(RestoreTransferTests.family, at: harness.clock.now, introductoryOffer: false)
            _ = try await RestoreTransferTests.submit(harness, client, "owner", bought.signedTransaction, transfer: true)
            var holder = "owner"
            for (index, user) in ["second", "third", "fourth"].enumerated() {
                harness.clock.set(ReferenceTime.day(2 + Double(index)))
                let signed = try store.currentTransaction(bought.originalTransactionID, at: harness.clock.now)
                _ = try await RestoreTransferTests.submit(
                    harness, client, user, signed, transfer: true, expect: policy == .transferToNewest ? .ok : .conflict)
                if policy == .transferToNewest { holder = user }
                // The same account restoring again is no new claim.
                _ = try await RestoreTransferTests.submit(
                    harness, client, user, signed, transfer: true, expect: policy == .transferToNewest ? .ok : .conflict)
                let flags = try await harness.subscriber(client, holder).anomalies
                #expect(flags.count == (index == 2 ? 1 : 0), "after \(index + 1) other accounts")
            }
            let flag = try #require(try await harness.subscriber(client, holder).anomalies.first)
            #expect(flag.kind == "shared_purchase" && flag.count == 3 && flag.threshold == 3)
            #expect(flag.originalTransactionID == bought.originalTransactionID && flag.since == ReferenceTime.day(4))

            _ = try await service.webhooks.publishWebhooks(holder: "test")
            let written = try await service.webhooks.webhookStore.deliveries(endpointID: nil, appUserID: AppUserID(holder), status: nil, limit: 10)
            #expect(written.map(\.eventType) == ["anomaly_flagged"])
            let event = try WireJSON.decoder.decode(WebhookEvent.self, from: Data(try #require(written.first).payload.utf8))
            #expect(event.data.anomaly == flag && event.subscriber?.anomalies == [flag])
            // Published again: nothing new.
            harness.clock.set(ReferenceTime.day(6))
            _ = try await service.webhooks.publishWebhooks(holder: "test")
            #expect(try await service.webhooks.webhookStore.deliveries(endpointID: nil, appUserID: AppUserID(holder), status: nil, limit: 10).count == 1)

            let cookie = try #require(DashboardTests.sessionCookie(try await DashboardTests().signIn(client)))
            let page = String(buffer: try await DashboardTests().page(client, "/dashboard/subscribers/\(holder)", cookie: cookie).body)
            #expect(page.contains("data-anomaly=\"shared_purchase\""))
            let listed = String(buffer: try await DashboardTests().page(client, "/dashboard/customers?flagged=true", cookie: cookie).body)
            #expect(listed.contains(">\(holder)<") && !listed.contains(">nobody<"))
        }
    }
}
