import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("ProductChange")
struct ProductChangeTests {
    /// ScreenTime Rewards' tiers (levels 1 family, 2 two children, 3 one child; monthly and yearly at
    /// each level), with a second monthly one-child product at level 3.
    static let catalog = Fixtures.exampleCatalog("Crossgrades")

    @Test("Apple's rules: up a level at once, down a level at renewal, across at once for the same duration, otherwise at renewal", arguments: [
        ("screentime.1child.monthly", "screentime.2child.monthly", ProductChange(kind: .upgrade, timing: .immediately), Subtype?.some(.upgrade)),
        ("screentime.1child.monthly", "screentime.family.yearly", ProductChange(kind: .upgrade, timing: .immediately), .upgrade),
        ("screentime.family.monthly", "screentime.1child.monthly", ProductChange(kind: .downgrade, timing: .atNextRenewal), .downgrade),
        ("screentime.2child.yearly", "screentime.1child.monthly", ProductChange(kind: .downgrade, timing: .atNextRenewal), .downgrade),
        ("screentime.1child.monthly", "screentime.1child.monthly.classic", ProductChange(kind: .crossgrade, timing: .immediately), nil),
        ("screentime.1child.monthly", "screentime.1child.yearly", ProductChange(kind: .crossgrade, timing: .atNextRenewal), nil),
        ("screentime.family.yearly", "screentime.family.monthly", ProductChange(kind: .crossgrade, timing: .atNextRenewal), nil),
    ])
    func rules(from: String, to: String, change: ProductChange, subtype: Subtype?) {
        #expect(Self.catalog.change(from: ProductID(from), to: ProductID(to)) == change)
        #expect(Self.catalog.change(from: ProductID(from), to: ProductID(to))?.notificationSubtype == subtype)
    }

    @Test("no change: the same product, an unknown one, or products of different groups")
    func notAChange() {
        #expect(Self.catalog.change(from: "screentime.1child.monthly", to: "screentime.1child.monthly") == nil)
        #expect(Self.catalog.change(from: "screentime.1child.monthly", to: "com.other.product") == nil)
        let other = Fixtures.exampleCatalog("ScreenTimeRewards")
        let individual = try! #require(other.product("com.screentimerewards.individual.monthly"))
        let oneChild = try! #require(Self.catalog.product("screentime.1child.monthly"))
        #expect(ProductChange(from: oneChild, to: individual) == nil)
    }

    @Test("the resolver names a pending change: a crossgrade to another duration and a downgrade both wait for the renewal")
    func pendingChangeNamed() {
        let apple = AppleFacts(bundleID: "com.screentimerewards")
        let resolver = EntitlementResolver(catalog: Self.catalog)
        for (target, kind) in [("screentime.1child.yearly", ProductChange.Kind.crossgrade), ("screentime.1child.monthly", .downgrade)] {
            let current = target == "screentime.1child.yearly" ? "screentime.1child.monthly" : "screentime.2child.monthly"
            var facts = SubscriberFacts(appUserID: "parent")
            facts.record(apple.subscription(current, original: "1", purchase: ReferenceTime.day(0), expires: ReferenceTime.day(31)))
            facts.record(apple.renewal(original: "1", product: current, autoRenewProduct: target, signed: ReferenceTime.day(5)))
            let status = resolver.resolve(facts, at: ReferenceTime.day(10)).subscriptions.first
            #expect(status?.productID.rawValue == current)
            #expect(status?.renewsToProductID?.rawValue == target)
            #expect(status?.renewalChange == kind)
        }
    }
}
