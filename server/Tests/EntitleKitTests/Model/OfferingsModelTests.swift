import EntitleTestSupport
import EntitleWire
import Foundation
import Testing

@testable import EntitleKit
@testable import EntitleServer

/// EntitleKit's offerings read from what the server serves for the seeds' catalogs: packages in the
/// paywall's order, the highlighted one, periods and prices as values, yearly savings, offers.
@Suite("Offerings (EntitleKit's paywall model)")
struct OfferingsModelTests {
    @Test("ScreenTimeRewards: each offering's packages in the catalog's order, the highlighted one, its metadata")
    func order() throws {
        let offerings = Offerings(OfferingsBuilder.response(Fixtures.exampleCatalog("ScreenTimeRewards")))
        let first = try #require(offerings["individual-first"])
        #expect(first.packages.map(\.id) == ["com.screentimerewards.individual.monthly", "com.screentimerewards.family.monthly"])
        #expect(first.highlightedPackage?.id == "com.screentimerewards.individual.monthly")
        #expect(first.metadata["title"] == "Start with one child")
        #expect(offerings.current?.id == "default" && offerings.current?.packages.first?.id == "com.screentimerewards.family.monthly")
        let family = try #require(first.package("com.screentimerewards.family.monthly"))
        #expect(family.period == SubscriptionPeriod(value: 1, unit: .month) && family.kind == .autoRenewable)
        #expect(family.limits["childDevices"] == .maximum(5) && family.subscriptionGroupID != nil)
        #expect(first.subscriptionGroups.flatMap(\.packages).map(\.id).sorted() == first.packages.map(\.id).sorted())
    }

    @Test("Epilogue: the yearly package's saving in the server's words, prices as decimals")
    func savings() throws {
        let offerings = Offerings(OfferingsBuilder.response(Fixtures.exampleCatalog("Epilogue")))
        let annual = try #require(offerings.package("com.epilogue.plus.annual"))
        let monthly = try #require(offerings.package("com.epilogue.plus.monthly"))
        let percent = try #require(annual.yearlySavingsPercent)
        #expect(annual.yearlySavingsLabel == "Save \(percent)%" && monthly.yearlySavingsLabel == nil)
        #expect(annual.period == SubscriptionPeriod(value: 1, unit: .year))
        let price = try #require(monthly.price)
        let annualPrice = try #require(annual.price)
        #expect(price > 0 && annualPrice < price * 12)
    }

    @Test("every example catalog: every package's period and every offer's period read, and every product is in a package", arguments: Fixtures.exampleNames)
    func everyPeriodReads(example: String) throws {
        let wire = OfferingsBuilder.response(Fixtures.exampleCatalog(example))
        let offerings = Offerings(wire)
        for (offering, served) in zip(wire.offerings, offerings.all) {
            let products = offering.subscriptionGroups.flatMap(\.products) + offering.otherProducts
            #expect(Set(served.packages.map(\.id)) == Set(products.map(\.productID)), "\(offering.id)")
            for product in products {
                let package = try #require(served.package(product.productID))
                #expect((package.period == nil) == (product.period == nil), "\(product.productID) \(product.period ?? "")")
                let offers = package.promotionalOffers + package.winBackOffers + (package.introductoryOffer.map { [$0] } ?? [])
                #expect(offers.allSatisfy { $0.period != nil }, "\(product.productID)")
                #expect(offers.count == product.promotionalOffers.count + product.winBackOffers.count + (product.introductoryOffer == nil ? 0 : 1))
            }
        }
    }

    @Test("why the current offering: an experiment's variant, the other reasons, one the server adds later")
    func servedBy() {
        func served(_ reason: String?) -> Offerings.ServedBy? {
            Offerings(OfferingsResponse(currentOfferingID: "x", offerings: [], servedBy: reason, experimentID: "order", variantID: "b")).servedBy
        }
        #expect(served("experiment") == .experiment(id: "order", variant: "b"))
        #expect(served("rolled_out") == .rolledOut && served("targeting") == .targeting && served("default") == .default)
        #expect(served("lottery") == .other("lottery") && served(nil) == nil)
        #expect(Offerings(OfferingsResponse(currentOfferingID: "gone", offerings: [])).current == nil)
    }

    @Test(
        "subscription periods: one unit of ISO 8601 reads, anything else is nil rather than a guess",
        arguments: [
            ("P1M", SubscriptionPeriod(value: 1, unit: .month)), ("P1Y", SubscriptionPeriod(value: 1, unit: .year)),
            ("P3D", SubscriptionPeriod(value: 3, unit: .day)), ("P2W", SubscriptionPeriod(value: 2, unit: .week)),
            ("P6M", SubscriptionPeriod(value: 6, unit: .month)), ("P0M", nil), ("P-1M", nil), ("PM", nil), ("P1H", nil), ("1M", nil),
            ("P1Y2M", nil), ("", nil), ("P99999999999999999999D", nil), ("PT1H", nil),
        ] as [(String, SubscriptionPeriod?)])
    func periods(text: String, expected: SubscriptionPeriod?) {
        #expect(SubscriptionPeriod(iso8601: text) == expected)
    }

    @Test("periods read as people say them")
    func periodDescriptions() {
        #expect(SubscriptionPeriod(value: 1, unit: .month).description == "1 month")
        #expect(SubscriptionPeriod(value: 3, unit: .day).description == "3 days")
    }
}
