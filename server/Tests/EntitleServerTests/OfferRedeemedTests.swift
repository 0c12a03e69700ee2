import AppStoreModels
import EntitleCore
import EntitleServer
import EntitleTestSupport
import EntitleWire
import Foundation
import HummingbirdTesting
import LocalAppStore
import Testing

/// An offer code redeemed end to end: OFFER_REDEEMED says the next renewal redeems it, the renewal is
/// the offer's period at its price, and the subscription renews at full price after.
@Suite("OFFER_REDEEMED")
struct OfferRedeemedTests {
    static let monthly = "com.epilogue.plus.monthly"

    @Test("Epilogue's book club month redeemed by a subscriber: announced for the next renewal, a free offer-code month, then full price")
    func offerCode() async throws {
        try await ServerHarness.run(example: "Epilogue", bundleID: "com.epilogue.app") { harness, client in
            var store = harness.localStore()
            let bought = try await harness.buy(client, &store, Self.monthly, as: "reader", at: ReferenceTime.day(0))
            let original = bought.originalTransactionID
            let code = try #require(harness.catalog.product(ProductID(Self.monthly))?.offerCodes.first?.id)
            harness.clock.set(ReferenceTime.day(5))
            let redeemed = try store.redeemOffer(original, type: .subscriptionOfferCode, identifier: code, at: harness.clock.now)
            #expect(redeemed.map(\.type) == [.offerRedeemed])
            try await harness.deliver(client, redeemed)
            let announced = try #require(try await harness.subscriber(client, "reader").subscriptions.first)
            #expect(announced.renewalOffer == RenewalOfferInfo(periodType: "offer_code", offerID: code))
            #expect(announced.periodType == "normal")

            let renewal = try #require(store.subscription(original)?.expiresDate)
            harness.clock.set(renewal.addingTimeInterval(60))
            try await harness.deliver(client, try store.renew(original, at: renewal))
            let month = try #require(try await harness.subscriber(client, "reader").subscriptions.first)
            #expect(month.periodType == "offer_code" && month.renewalOffer == nil && month.state == "active")
            #expect(store.subscription(original)?.price == 0, "the code's month is free")
            #expect(try await harness.subscriber(client, "reader").entitlements.contains { $0.id == "plus" && $0.isActive })

            let next = try #require(store.subscription(original)?.expiresDate)
            harness.clock.set(next.addingTimeInterval(60))
            try await harness.deliver(client, try store.renew(original, at: next))
            #expect(try await harness.subscriber(client, "reader").subscriptions.first?.periodType == "normal")
            #expect(store.subscription(original)?.price == 7_990)
        }
    }
}
