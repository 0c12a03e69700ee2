import EntitleCore
import EntitleServer
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@Suite("Offerings")
struct OfferingsTests {
    @Test("GET /v1/offerings: groups by level with prices, periods, offers, savings, names, and what each product grants")
    func tiers() async throws {
        try await ServerHarness.run(example: "ScreenTimeRewardsTiers") { harness, client in
            let response = try await harness.get(client, "/v1/offerings?appUserID=parent-1", key: harness.publicKey("parent-1"))
            let offerings = try ServerHarness.decode(OfferingsResponse.self, response)
            #expect(offerings.currentOfferingID == "default")
            let offering = try #require(offerings.offerings.first { $0.id == offerings.currentOfferingID })
            let group = try #require(offering.subscriptionGroups.first)
            #expect(group.products.map(\.level) == group.products.map(\.level).sorted { ($0 ?? 0) < ($1 ?? 0) })
            #expect(group.products.first?.level == 1)
            let oneChild = try #require(group.products.first { $0.productID == "screentime.1child.monthly" })
            #expect(oneChild.price == "9.99" && oneChild.priceMilliunits == 9990 && oneChild.period == "P1M" && oneChild.level == 3)
            #expect(oneChild.displayName == "1 Child Plan (Monthly)")
            #expect(oneChild.introductoryOffer?.paymentMode == "free" && oneChild.introductoryOffer?.period == "P2W")
            #expect(oneChild.entitlements == ["one_child"])
            #expect(oneChild.limits["childProfiles"] == .some(1))
            let yearly = try #require(group.products.first { $0.productID == "screentime.1child.yearly" })
            let expected = try #require(Fixtures.exampleCatalog("ScreenTimeRewardsTiers").yearlySavings.first { $0.yearlyProductID.rawValue == yearly.productID })
            #expect(yearly.yearlySavingsPercent == expected.percent)
            // Seed 000's paywall opens on the yearly plan (`products.first { $0.isYearly }`): the catalog highlights it.
            #expect(offering.highlightedProductID == "screentime.1child.yearly")
        }
    }

    @Test("offerings need a key: a secret key, or a subscriber's public key with its appUserID")
    func keyed() async throws {
        try await ServerHarness.run { harness, client in
            try await harness.get(client, "/v1/offerings", key: nil, expect: .unauthorized)
            try await harness.get(client, "/v1/offerings", key: harness.publicKey("parent-1"), expect: .forbidden)
            try await harness.get(client, "/v1/offerings?appUserID=parent-2", key: harness.publicKey("parent-1"), expect: .forbidden)
            try await harness.get(client, "/v1/offerings", key: ServerHarness.secretKey)
        }
    }
}
