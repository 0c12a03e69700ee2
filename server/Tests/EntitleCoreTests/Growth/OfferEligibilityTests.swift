import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

/// Who may have which offer: Apple's introductory-offer rule, the catalog's promotional-offer rules,
/// Apple's win-back list.
@Suite("OfferEligibility")
struct OfferEligibilityTests {
    static let catalog = Fixtures.exampleCatalog("ScreenTimeRewards")
    static let apple = AppleFacts(bundleID: "com.screentimerewards.app")
    static let individual = "com.screentimerewards.individual.monthly"
    static let family = "com.screentimerewards.family.monthly"
    static let day: TimeInterval = 86_400

    static func eligibility(_ facts: SubscriberFacts?, _ product: String, at: Date = ReferenceTime.day(100)) throws -> ProductEligibility {
        OfferEligibility.eligibility(of: facts, for: try #require(catalog.product(ProductID(product))), in: catalog, at: at)
    }

    @Test("a newcomer may have the introductory offer of every product that has one")
    func newcomer() throws {
        for product in [Self.individual, Self.family] {
            #expect(try Self.eligibility(nil, product).introductoryOffer == true)
            #expect(try Self.eligibility(SubscriberFacts(appUserID: "new"), product).introductoryOffer == true)
        }
    }

    @Test("nobody who had one in the group: not while it runs, nor after it converted and renewed away, nor after a refund, nor for another product of the group")
    func hadOne() throws {
        let start = ReferenceTime.day(1)
        let trial = Self.apple.subscription(
            Self.individual, original: "T", id: "T1", purchase: start, expires: start + 7 * Self.day, offer: .introductoryOffer, discount: .freeTrial,
            groupID: "20776E67")
        var facts = SubscriberFacts(appUserID: "parent")
        facts.record(trial)
        #expect(try Self.eligibility(facts, Self.individual).introductoryOffer == false)
        #expect(try Self.eligibility(facts, Self.family).introductoryOffer == false)
        // Renewals replace the trial transaction in the projection; the offer stays had.
        for period in 1...3 {
            facts.record(Self.apple.subscription(
                Self.individual, original: "T", id: "T\(period + 1)", purchase: start + Double(7 + 30 * (period - 1)) * Self.day,
                expires: start + Double(7 + 30 * period) * Self.day, originalPurchase: start, reason: .renewal, groupID: "20776E67"))
        }
        #expect(facts.purchases["T"]?.transactions.keys.sorted() == ["T4"])
        #expect(try Self.eligibility(facts, Self.family).introductoryOffer == false)
        // Any order of the same transactions, and a merge, keep it.
        var reversed = SubscriberFacts(appUserID: "parent")
        for period in (1...3).reversed() {
            reversed.record(Self.apple.subscription(
                Self.individual, original: "T", id: "T\(period + 1)", purchase: start + Double(7 + 30 * (period - 1)) * Self.day,
                expires: start + Double(7 + 30 * period) * Self.day, originalPurchase: start, reason: .renewal, groupID: "20776E67"))
        }
        reversed.record(trial)
        #expect(reversed == facts)
        var refunded = trial
        refunded.revocationDate = start + Self.day
        var afterRefund = SubscriberFacts(appUserID: "other")
        afterRefund.record(refunded)
        #expect(try Self.eligibility(afterRefund, Self.individual).introductoryOffer == false)
    }

    @Test("a subscriber who paid without the offer may still have it (Apple's rule is about the offer, not the group)")
    func paidWithoutOffer() throws {
        var facts = SubscriberFacts(appUserID: "payer")
        facts.record(Self.apple.subscription(Self.family, original: "P", id: "P1", purchase: ReferenceTime.day(1), expires: ReferenceTime.day(31), groupID: "20776E67"))
        #expect(try Self.eligibility(facts, Self.individual).introductoryOffer == true)
    }

    @Test("win-back offers: only those Apple lists in the latest renewal info of the group, and only the product's")
    func winBack() throws {
        var product = try #require(Self.catalog.product(ProductID(Self.family)))
        product.winBackOffers = ["winback.family", "winback.spring"].map {
            SubscriptionOffer(kind: .winBack, id: $0, paymentMode: .freeTrial, period: ISODuration(months: 1))
        }
        let catalog = Catalog(
            products: Self.catalog.products.map { $0.id == product.id ? product : $0 }, subscriptionGroups: Self.catalog.subscriptionGroups,
            entitlements: Self.catalog.entitlements)
        var facts = SubscriberFacts(appUserID: "lapsed")
        facts.record(Self.apple.subscription(Self.family, original: "W", id: "W1", purchase: ReferenceTime.day(1), expires: ReferenceTime.day(31), groupID: "20776E67"))
        var earlier = Self.apple.renewal(original: "W", product: Self.family, autoRenew: .off, signed: ReferenceTime.day(35))
        earlier.eligibleWinBackOfferIds = ["winback.spring"]
        var latest = Self.apple.renewal(original: "W", product: Self.family, autoRenew: .off, signed: ReferenceTime.day(40))
        latest.eligibleWinBackOfferIds = ["winback.family", "winback.unknown"]
        facts.record(latest)
        facts.record(earlier)
        let answer = OfferEligibility.eligibility(of: facts, for: product, in: catalog, at: ReferenceTime.day(41))
        #expect(answer.winBackOfferIDs == ["winback.family"])
        #expect(OfferEligibility.eligibility(of: nil, for: product, in: catalog, at: ReferenceTime.day(41)).winBackOfferIDs.isEmpty)
    }
}
