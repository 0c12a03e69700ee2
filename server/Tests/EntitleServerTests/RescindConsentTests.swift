import AppStoreModels
import EntitleCore
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HummingbirdTesting
import LocalAppStore
import Testing

/// Apple's RESCIND_CONSENT (a parent or guardian withdrew consent to the app for a minor) names no purchase,
/// only the customer's app transaction: it reaches the subscriber whose transactions carry that app
/// transaction ID, whichever arrives first, and is on their timeline and in their answer.
@Suite("RESCIND_CONSENT")
struct RescindConsentTests {
    static let family = "com.screentimerewards.family.monthly"

    @Test("consent withdrawn after the purchase: on the subscriber's timeline and in the answer at once; access untouched; or before it, held until the purchase links the app transaction",
          arguments: StorageEngine.databases)
    func rescinded(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            var store = harness.localStore()
            let notifier = ConsentNotifier(signer: harness.authority.signer, bundleID: harness.bundleID)
            harness.clock.set(ReferenceTime.day(1))
            let purchase = try await harness.buy(client, &store, Self.family, as: "kid-1", at: harness.clock.now)
            let chain = try #require(store.subscription(purchase.originalTransactionID))
            #expect(purchase.transaction.appTransactionId == chain.appTransactionID)
            harness.clock.set(ReferenceTime.day(2))
            let withdrawn = try notifier.rescindConsent(of: chain, at: harness.clock.now)
            try await harness.deliver(client, [withdrawn])
            let answer = try await harness.subscriber(client, "kid-1")
            #expect(answer.consentRescindedAt == ReferenceTime.day(2))
            #expect(answer.entitlements.contains { $0.id == "family" && $0.isActive }, "Apple revokes nothing")
            let timeline = try ServerHarness.decode(
                [TimelineEvent].self, try await harness.get(client, "/v1/subscribers/kid-1/events", key: ServerHarness.secretKey))
            #expect(timeline.contains { $0.kind == "RESCIND_CONSENT" })
            // The same notification again changes nothing.
            try await harness.deliver(client, [withdrawn])
            #expect(try await harness.subscriber(client, "kid-1").consentRescindedAt == ReferenceTime.day(2))

            // Another customer's consent is withdrawn before their purchase reaches the server: held, then theirs.
            let early = try store.purchase(Self.family, appAccountToken: UUID(), at: ReferenceTime.day(3))
            let earlyChain = try #require(store.subscription(early.originalTransactionID))
            try await harness.deliver(client, [try notifier.rescindConsent(of: earlyChain, at: ReferenceTime.day(3))])
            harness.clock.set(ReferenceTime.day(4))
            try await harness.submit(client, "kid-2", signed: early.signedTransaction)
            #expect(try await harness.subscriber(client, "kid-2").consentRescindedAt == ReferenceTime.day(3))
            #expect(try await harness.subscriber(client, "kid-1").consentRescindedAt == ReferenceTime.day(2))
        }
    }
}
