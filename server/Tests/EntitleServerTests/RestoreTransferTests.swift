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
import Testing

/// Two anonymous installs on one Apple account under the `transfer` restore policy: a restore moves the
/// purchase, a background sync of the other device doesn't move it back.
@Suite("Restore transfers")
struct RestoreTransferTests {
    static let family = "com.screentimerewards.family.monthly"

    static func submit(
        _ harness: ServerHarness, _ client: any TestClientProtocol, _ user: String, _ signed: String, transfer: Bool?,
        expect status: HTTPResponse.Status = .ok
    ) async throws -> TestResponse {
        try await harness.post(
            client, "/v1/subscribers/\(user)/transactions", key: harness.publicKey(user),
            body: ServerHarness.json(SubmitTransactionRequest(signedTransaction: signed, transfer: transfer)), expect: status)
    }

    @Test("a restore on the second device moves the purchase; the first device's background syncs never move it back (no ping-pong)",
          arguments: StorageEngine.databases)
    func noPingPong(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine, restorePolicy: .transferToNewest) { harness, client in
            var store = harness.localStore()
            let (phone, tablet) = ("$RCAnonymousID:0a0a0a0a0a0a4a0a8a0a0a0a0a0a0a0a", "$RCAnonymousID:0b0b0b0b0b0b4b0b8b0b0b0b0b0b0b0b")
            harness.clock.set(ReferenceTime.day(1))
            let bought = try store.purchase(Self.family, at: harness.clock.now, introductoryOffer: false)
            _ = try await Self.submit(harness, client, phone, bought.signedTransaction, transfer: true)
            // The tablet restores: the purchase moves to it (the user asked).
            harness.clock.set(ReferenceTime.day(2))
            let restored = try store.currentTransaction(bought.originalTransactionID, at: harness.clock.now)
            _ = try await Self.submit(harness, client, tablet, restored, transfer: true)
            #expect(try await harness.subscriber(client, tablet).entitlements.contains { $0.isActive })
            #expect(try await harness.subscriber(client, phone).entitlements.allSatisfy { !$0.isActive })
            // The phone's StoreKit sees the renewal and syncs it in the background: refused, the purchase stays.
            let renewalAt = try #require(store.subscription(bought.originalTransactionID)?.expiresDate)
            harness.clock.set(renewalAt.addingTimeInterval(60))
            try await harness.deliver(client, try store.renew(bought.originalTransactionID, at: renewalAt))
            let renewed = try store.currentTransaction(bought.originalTransactionID, at: harness.clock.now)
            let refused = try await Self.submit(harness, client, phone, renewed, transfer: false, expect: .conflict)
            #expect(ServerHarness.errorCode(refused) == "purchase.ownedByAnotherSubscriber")
            _ = try await Self.submit(harness, client, tablet, renewed, transfer: false)
            #expect(try await harness.subscriber(client, tablet).entitlements.contains { $0.isActive })
            #expect(try await harness.subscriber(client, phone).entitlements.allSatisfy { !$0.isActive })
            let timeline = try ServerHarness.decode(
                [TimelineEvent].self, try await harness.get(client, "/v1/subscribers/\(tablet)/events", key: ServerHarness.secretKey))
            #expect(timeline.filter { $0.kind.hasPrefix("purchase_transferred") }.count == 1, "moved once")
            // A request that says nothing is a claim, as before: the phone's user restoring moves it back.
            _ = try await Self.submit(harness, client, phone, renewed, transfer: nil)
            #expect(try await harness.subscriber(client, phone).entitlements.contains { $0.isActive })
        }
    }
}
