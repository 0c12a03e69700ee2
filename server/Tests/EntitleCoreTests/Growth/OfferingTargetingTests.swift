import EntitleCore
import Foundation
import Testing

/// Which offering a subscriber is served: rules in order, the first that matches, else the default.
@Suite("OfferingTargeting")
struct OfferingTargetingTests {
    static var catalog: Catalog {
        var catalog = Catalog()
        catalog.offerings = ["default", "winback", "france", "teachers", "v2"].map { OfferingDefinition(id: $0, productIDs: []) }
        catalog.targeting = [
            TargetingRule(offeringID: "winback", audiences: [.lapsed]),
            TargetingRule(offeringID: "france", storefronts: ["FRA"], audiences: [.new, .trialing]),
            TargetingRule(offeringID: "teachers", attributes: ["role": ["teacher", "school"]]),
            TargetingRule(offeringID: "v2", minimumAppVersion: "2.0", belowAppVersion: "3"),
        ]
        return catalog
    }

    @Test("first match wins, in the file's order; nothing matching serves the default", arguments: [
        (TargetingContext(storefront: "FRA", audience: .lapsed), "winback", 0),
        (TargetingContext(storefront: "FRA", audience: .new), "france", 1),
        (TargetingContext(storefront: "fra", audience: .trialing), "france", 1),
        (TargetingContext(storefront: "DEU", audience: .new, attributes: ["role": "school"]), "teachers", 2),
        (TargetingContext(storefront: "FRA", audience: .active, attributes: ["role": "teacher"]), "teachers", 2),
        (TargetingContext(appVersion: "2.10.1", audience: .active), "v2", 3),
        (TargetingContext(audience: .active, attributes: ["role": "parent"]), "default", nil),
        (TargetingContext(appVersion: "3.0", audience: .active), "default", nil),
        (TargetingContext(appVersion: "1.9.9", audience: .new), "default", nil),
        (TargetingContext(audience: .new), "default", nil),
    ] as [(TargetingContext, String, Int?)])
    func firstMatch(context: TargetingContext, offering: String, rule: Int?) {
        let chosen = OfferingTargeting.offering(in: Self.catalog, for: context)
        #expect(chosen.offeringID == offering)
        #expect(chosen.rule == rule)
    }

    @Test("app versions compare as numbers, missing parts as zero; anything else is no version", arguments: [
        ("2.4", "2.4.0", 0), ("2.4", "2.10", -1), ("10", "9.9.9", 1), ("1.0.0.1", "1", 1),
    ])
    func versions(left: String, right: String, order: Int) throws {
        let (a, b) = (try #require(AppVersion(left)), try #require(AppVersion(right)))
        #expect((a < b ? -1 : b < a ? 1 : 0) == order)
        #expect(a == b ? order == 0 : true)
    }

    @Test("not versions", arguments: ["", "2.", ".1", "2.x", "1.2.3.4.5", "1234567", "-1", "٣"])
    func notVersions(text: String) {
        #expect(AppVersion(text) == nil)
    }
}
