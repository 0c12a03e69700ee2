import EntitleCore
import Foundation
import Testing

/// The entitlements file's offerings, default offering and targeting, as ``CatalogLoader`` reads them.
@Suite("Catalog offerings")
struct CatalogOfferingsTests {
    static func with(_ json: String) -> String {
        CatalogLoaderTests.entitlements.replacingOccurrences(of: "\"futureKey\":true,", with: "\"futureKey\":true,\(json),")
    }

    @Test("without offerings, one: default, of every product, served to everyone")
    func standard() throws {
        let catalog = try CatalogLoaderTests.load()
        #expect(catalog.offeringIDs == ["default"])
        #expect(catalog.defaultOfferingID == "default")
        #expect(catalog.offering("default")?.productIDs == catalog.products.map(\.id))
        #expect(catalog.targeting.isEmpty)
    }

    @Test("declared offerings keep their products' order, highlight and metadata; targeting rules keep theirs")
    func declared() throws {
        let catalog = try CatalogLoaderTests.load(entitlements: Self.with("""
            "offerings":{"default":{"products":["app.pro.yearly","app.pro.monthly"],"highlighted":"app.pro.yearly","metadata":{"title":"Go Pro"}},\
            "lapsed":{"products":["app.pro.monthly"]}},\
            "targeting":[{"offering":"lapsed","audiences":["lapsed"],"storefronts":["FRA"],"minimumAppVersion":"2.0","attributes":{"role":["teacher"]}},\
            {"offering":"default","belowAppVersion":"1.5"}]
            """))
        #expect(catalog.offeringIDs == ["default", "lapsed"])
        let standard = try #require(catalog.offering("default"))
        #expect(standard.productIDs == ["app.pro.yearly", "app.pro.monthly"])
        #expect(standard.highlighted == "app.pro.yearly")
        #expect(standard.metadata == ["title": "Go Pro"])
        #expect(catalog.targeting == [
            TargetingRule(offeringID: "lapsed", storefronts: ["FRA"], minimumAppVersion: "2.0", audiences: [.lapsed], attributes: ["role": ["teacher"]]),
            TargetingRule(offeringID: "default", belowAppVersion: "1.5"),
        ])
    }

    @Test("every mistake is reported with its path", arguments: [
        (#""offerings":{"default":{"products":["app.nope"]}}"#, "offerings.default.products[0]"),
        (#""offerings":{"default":{"products":["app.pro.monthly","app.pro.monthly"]}}"#, "offerings.default.products[1]"),
        (#""offerings":{"default":{"products":[]}}"#, "offerings.default.products"),
        (#""offerings":{"default":{"products":["app.pro.monthly"],"highlighted":"app.pro.yearly"}}"#, "offerings.default.highlighted"),
        (#""offerings":{"annual":{"products":["app.pro.yearly"]}}"#, "offerings"),
        (#""offerings":{"annual":{"products":["app.pro.yearly"]}},"defaultOffering":"monthly""#, "defaultOffering"),
        (#""targeting":[{"offering":"summer"}]"#, "targeting[0].offering"),
        (#""targeting":[{"offering":"default","minimumAppVersion":"2.x"}]"#, "targeting[0].minimumAppVersion"),
        (#""targeting":[{"offering":"default","storefronts":["fr"]}]"#, "targeting[0].storefronts[0]"),
        (#""targeting":[{"offering":"default","audiences":["vip"]}]"#, "targeting[0].audiences[0]"),
    ])
    func mistakes(json: String, path: String) {
        let errors = CatalogLoaderTests.errors(entitlements: Self.with(json))
        #expect(errors.map(\.path).contains(path), "\(errors.map { "\($0.path): \($0.message)" })")
    }

    @Test("the business checks' thresholds: the seeds' by default, the file's where it gives them, refused outside 0 to 1")
    func alertThresholds() throws {
        #expect(try CatalogLoaderTests.load().alertThresholds == BusinessThresholds(
            trialConversionBelow: 0.10, paywallBounceAbove: 0.70, revenueDropAbove: 0.20, paymentFailureAbove: 0.02))
        let custom = try CatalogLoaderTests.load(entitlements: Self.with(#""alerts":{"trialConversionBelow":0.15,"paymentFailureAbove":0.05}"#))
        #expect(custom.alertThresholds == BusinessThresholds(trialConversionBelow: 0.15, paymentFailureAbove: 0.05))
        let errors = CatalogLoaderTests.errors(entitlements: Self.with(#""alerts":{"paywallBounceAbove":70}"#))
        #expect(errors.map(\.path) == ["alerts.paywallBounceAbove"])
    }

    @Test("policies: Apple's by default; billing retry access and a provisional grant of 1 to 72 hours where the file says so; the Small Business Program")
    func policies() throws {
        #expect(try CatalogLoaderTests.load().policies == .apple)
        let chosen = try CatalogLoaderTests.load(entitlements: Self.with(
            #""policies":{"billingRetryAccess":true,"provisionalGrantHours":24},"analytics":{"smallBusinessProgram":true}"#))
        #expect(chosen.policies == AccessPolicies(billingRetryAccess: true, provisionalGrantHours: 24) && chosen.smallBusinessProgram)
        for hours in [0, 73] {
            let errors = CatalogLoaderTests.errors(entitlements: Self.with(#""policies":{"provisionalGrantHours":\#(hours)}"#))
            #expect(errors.map(\.path) == ["policies.provisionalGrantHours"])
        }
    }
}
