import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("EntitlementResolver")
struct EntitlementResolverTests {
    typealias STR = ScreenTimeRewardsScenarios
    static func day(_ n: Double) -> Date { ReferenceTime.day(n) }

    // MARK: Seed 004

    @Test("TC1: the trial starts at first launch with 30 days, grace from day 31, lockout from day 38")
    func tc1TrialFlow() {
        let facts = STR.subscriber()
        let first = STR.access(facts, at: Self.day(0))
        #expect(first.appTrial == .active(endsAt: Self.day(30)))
        #expect(first.entitlement("family")?.state == .trial)
        #expect(first.entitlement("family")?.source == .appTrial)
        #expect(first.access("challenges.create").outcome == .allowed)

        let day31 = STR.access(facts, at: Self.day(30))
        #expect(day31.appTrial == .grace(trialEndedAt: Self.day(30), lockoutAt: Self.day(37)))
        #expect(day31.entitlement("individual")?.state == .appGrace)
        #expect(day31.access("challenges.create") == AccessDecision(
            feature: "challenges.create", outcome: .allowedWithWarning, reason: .appGrace(lockoutAt: Self.day(37)), paywall: .convertTrial))

        let day38 = STR.access(facts, at: Self.day(37))
        #expect(day38.isLockedOut)
        #expect(day38.entitlement("family")?.state == .lockout)
        #expect(day38.activeEntitlements.isEmpty)
        #expect(day38.access("challenges.create") == AccessDecision(feature: "challenges.create", outcome: .denied, reason: .trialExpired, paywall: .convertTrial))
    }

    @Test("lockout keeps history, settings and subscription management; denies creating, tracking, pairing and settings changes")
    func lockoutAllows() {
        let access = STR.access(STR.subscriber(), at: Self.day(40))
        for feature in ["history.view", "settings.view", "subscription.manage"] {
            #expect(access.access(feature).outcome == .allowed, "\(feature)")
        }
        for feature in ["challenges.create", "screentime.track", "settings.modify", "childDevices"] {
            #expect(access.access(feature).outcome == .denied, "\(feature)")
        }
    }

    @Test("TC2: a purchase during the trial supersedes it and the subscription is active")
    func tc2Purchase() {
        let access = STR.access(STR.subscriber(product: STR.individual, subscribedOn: 12), at: Self.day(12))
        #expect(access.appTrial == .superseded(at: Self.day(12)))
        #expect(access.activeEntitlements.map(\.id) == ["individual"])
        #expect(access.entitlement("individual")?.state == .active)
        #expect(access.lapse == nil)
    }

    @Test("TC4: Individual pairs one device, not two; after upgrading to Family the second pairs")
    func tc4Upgrade() {
        var facts = STR.subscriber(product: STR.individual)
        let individual = STR.access(facts, at: Self.day(10))
        #expect(individual.access("childDevices", usage: 1).outcome == .allowed)
        #expect(individual.access("childDevices", usage: 2) == AccessDecision(
            feature: "childDevices", outcome: .denied, reason: .limitExceeded(maximum: 1), paywall: .upgrade, allowance: .limited(1)))

        // The upgrade: Apple marks the Individual transaction upgraded and starts Family at once.
        var upgraded = facts.purchases["2000"]!.currentTransaction!
        upgraded.isUpgraded = true
        upgraded.revocationDate = Self.day(12)
        upgraded.signedDate = Self.day(12)
        facts.record(upgraded)
        facts.record(STR.apple.subscription(STR.family, original: "2000", id: "family-1", purchase: Self.day(12), expires: Self.day(43), price: 12990))
        let family = STR.access(facts, at: Self.day(12))
        #expect(family.activeEntitlements.map(\.id) == ["family"])
        #expect(family.access("childDevices", usage: 2).outcome == .allowed)
        #expect(family.access("childDevices", usage: 5).outcome == .allowed)
    }

    @Test("downgrading Family to Individual keeps five devices until renewal, then pauses the four newest")
    func downgradePauses() {
        var facts = STR.subscriber(product: STR.family, subscribedOn: 0)
        facts.record(STR.apple.renewal(original: "2000", product: STR.family, autoRenewProduct: STR.individual, signed: Self.day(10)))
        let devices = (1...5).map { LimitedItem(id: "child-\($0)", addedAt: Self.day(Double($0))) }

        let beforeRenewal = STR.access(facts, at: Self.day(20))
        #expect(beforeRenewal.entitlement("family")?.renewsToProductID?.rawValue == STR.individual)
        #expect(beforeRenewal.pausedItems(forLimit: "childDevices", items: devices).isEmpty)

        facts.record(STR.apple.subscription(STR.individual, original: "2000", id: "renewal-1", purchase: Self.day(31), expires: Self.day(59), reason: .renewal))
        facts.record(STR.apple.renewal(original: "2000", product: STR.individual, signed: Self.day(31)))
        let afterRenewal = STR.access(facts, at: Self.day(32))
        #expect(afterRenewal.activeEntitlements.map(\.id) == ["individual"])
        #expect(afterRenewal.pausedItems(forLimit: "childDevices", items: devices).map(\.id) == ["child-5", "child-4", "child-3", "child-2"])
    }

    @Test("TC5: a subscription expires, the app's grace begins, and renewing makes it active again")
    func tc5ExpirationAndRenewal() {
        var facts = STR.subscriber(trial: false, product: STR.individual, subscribedOn: 0, autoRenew: .off)
        let expired = STR.access(facts, at: Self.day(32))
        #expect(expired.entitlement("individual")?.state == .appGrace)
        #expect(expired.entitlement("individual")?.source == .expiryGrace)
        #expect(expired.access("challenges.create").reason == .appGrace(lockoutAt: Self.day(38)))
        #expect(expired.access("challenges.create").paywall == .renew)

        facts.record(STR.apple.subscription(STR.individual, original: "2000", id: "resubscribe", purchase: Self.day(33), expires: Self.day(64)))
        facts.record(STR.apple.renewal(original: "2000", product: STR.individual, signed: Self.day(33)))
        let renewed = STR.access(facts, at: Self.day(34))
        #expect(renewed.entitlement("individual")?.state == .active)
        #expect(renewed.access("challenges.create").outcome == .allowed)
    }

    @Test("a refund ends access at once and is not followed by the app's grace period")
    func refundNoGrace() {
        var facts = STR.subscriber(trial: false, product: STR.individual, subscribedOn: 0)
        var refunded = facts.purchases["2000"]!.currentTransaction!
        refunded.revocationDate = Self.day(10)
        refunded.signedDate = Self.day(10)
        facts.record(refunded)
        let access = STR.access(facts, at: Self.day(10))
        #expect(access.entitlement("individual")?.state == .revoked)
        #expect(access.access("challenges.create") == AccessDecision(feature: "challenges.create", outcome: .denied, reason: .revoked, paywall: .subscribe))
    }

    @Test("a family-shared Family subscription entitles the family member")
    func familyShared() {
        var facts = SubscriberFacts(appUserID: "member")
        facts.record(STR.apple.subscription(STR.family, original: "3000", purchase: Self.day(0), expires: Self.day(31), ownership: .familyShared))
        let access = STR.access(facts, at: Self.day(3))
        #expect(access.entitlement("family")?.isActive == true)
        #expect(access.entitlement("family")?.isFamilyShared == true)
    }

    // MARK: Seed 001

    static let epilogue = EntitlementResolver(catalog: Fixtures.exampleCatalog("Epilogue"))
    static let monthly = "com.epilogue.plus.monthly"
    static let annual = "com.epilogue.plus.annual"

    /// | Scenario | isPlus | — seed 001's "Status Edge Cases", its billing retry by its catalog's policy.
    static let statusEdgeCases: [(scenario: String, isPlus: Bool)] = [
        ("Active subscription", true),
        ("Grace period", true),
        // The seed's table: "still entitled during retry" (Epilogue's `policies.billingRetryAccess`).
        ("Billing retry", true),
        ("Expired", false),
        ("Refunded", false),
        ("Upgraded mid-cycle", true),
        ("Downgraded", true),
    ]

    static func epilogueFacts(_ scenario: String) -> (SubscriberFacts, Date) {
        let apple = AppleFacts(bundleID: "com.epilogue.app")
        var facts = SubscriberFacts(appUserID: "reader")
        let subscription = apple.subscription(monthly, original: "5000", id: "m1", purchase: day(0), expires: day(31))
        facts.record(subscription)
        switch scenario {
        case "Active subscription":
            facts.record(apple.renewal(original: "5000", product: monthly, signed: day(0)))
            return (facts, day(10))
        case "Grace period":
            facts.record(apple.renewal(original: "5000", product: monthly, signed: day(31), billingRetry: true, graceEnds: day(37)))
            return (facts, day(33))
        case "Billing retry":
            facts.record(apple.renewal(original: "5000", product: monthly, signed: day(31), expirationIntent: .billingError, billingRetry: true))
            return (facts, day(33))
        case "Expired":
            facts.record(apple.renewal(original: "5000", product: monthly, autoRenew: .off, signed: day(5), expirationIntent: .customerCancelled))
            return (facts, day(40))
        case "Refunded":
            var refunded = subscription
            refunded.revocationDate = day(8)
            refunded.signedDate = day(8)
            facts.record(refunded)
            return (facts, day(10))
        case "Upgraded mid-cycle":
            var upgraded = subscription
            upgraded.isUpgraded = true
            upgraded.revocationDate = day(15)
            upgraded.signedDate = day(15)
            facts.record(upgraded)
            facts.record(apple.subscription(annual, original: "5000", id: "a1", purchase: day(15), expires: day(380), price: 67000))
            return (facts, day(15))
        default:
            facts.record(apple.renewal(original: "5000", product: monthly, autoRenewProduct: "com.epilogue.plus.cheaper", signed: day(12)))
            return (facts, day(20))
        }
    }

    @Test("seed 001 Status Edge Cases", arguments: statusEdgeCases)
    func statusEdgeCase(scenario: String, isPlus: Bool) {
        let (facts, at) = Self.epilogueFacts(scenario)
        let access = Self.epilogue.resolve(facts, at: at)
        #expect((access.entitlement("plus")?.isActive ?? false) == isPlus)
        #expect(access.access("insights.advanced").isAllowed == isPlus)
    }

    @Test("billing retry by policy: Apple's default grants nothing; billingRetryAccess keeps access with a warning until 60 days after the period's end")
    func billingRetryPolicy() {
        let (facts, at) = Self.epilogueFacts("Billing retry")
        var apple = Fixtures.exampleCatalog("Epilogue")
        apple.policies = .apple
        let strict = EntitlementResolver(catalog: apple).resolve(facts, at: at)
        #expect(strict.entitlement("plus")?.state == .billingRetry && strict.entitlement("plus")?.isActive == false)
        #expect(strict.lapse?.paywall == .updatePayment)
        let kept = Self.epilogue.resolve(facts, at: at)
        let plus = kept.entitlement("plus")
        #expect(plus?.state == .gracePeriod && plus?.isActive == true)
        #expect(plus?.expiresAt == Self.day(31).addingTimeInterval(60 * 86_400), "bounded: a cached answer trusts it no longer")
        #expect(kept.access("insights.advanced").outcome == .allowedWithWarning)
        #expect(kept.subscriptions.first?.state == .billingRetry, "the subscription's own state stays Apple's")
        #expect(Self.epilogue.resolve(facts, at: Self.day(91).addingTimeInterval(-1)).entitlement("plus")?.isActive == true)
        #expect(Self.epilogue.resolve(facts, at: Self.day(91)).entitlement("plus")?.isActive == false)
    }

    // MARK: Seed 002

    static let pantryPal = EntitlementResolver(catalog: Fixtures.exampleCatalog("PantryPal"))
    static let pantryMonthly = "com.pantrypal.premium.monthly"

    static func household(autoRenew: AutoRenewStatus = .on) -> SubscriberFacts {
        let apple = AppleFacts(bundleID: "me.subasically.pantrypal")
        var facts = SubscriberFacts(appUserID: "household-7")
        facts.record(apple.subscription(pantryMonthly, original: "7000", purchase: day(0), expires: day(31), price: 4990))
        facts.record(apple.renewal(original: "7000", product: pantryMonthly, autoRenew: autoRenew, signed: day(3), expirationIntent: autoRenew == .off ? .customerCancelled : nil))
        return facts
    }

    @Test("seed 002: a cancelled subscription keeps premium to the period's end, then the free tier")
    func cancellationKeepsPremium() {
        let facts = Self.household(autoRenew: .off)
        let cancelled = Self.pantryPal.resolve(facts, at: Self.day(20))
        #expect(cancelled.entitlement("premium")?.state == .activeNotRenewing)
        #expect(cancelled.entitlement("premium")?.expiresAt == Self.day(31))
        #expect(cancelled.access("items", usage: 200).outcome == .allowed)
        let ended = Self.pantryPal.resolve(facts, at: Self.day(31))
        #expect(ended.entitlement("premium")?.state == .expired)
        #expect(ended.access("household.invite").outcome == .denied)
    }

    @Test("seed 002: expired means the free tier; more than 25 items stay readable but none can be added")
    func expiredIsReadOnlyBeyond25() {
        let expired = Self.pantryPal.resolve(Self.household(autoRenew: .off), at: Self.day(45))
        #expect(expired.access("items.view").outcome == .allowed)
        #expect(expired.access("items", usage: 25).outcome == .allowed)
        #expect(expired.access("items", usage: 26) == AccessDecision(
            feature: "items", outcome: .denied, reason: .limitExceeded(maximum: 25), paywall: .renew, allowance: .limited(25)))
        #expect(expired.access("grocery.autoAdd") == AccessDecision(feature: "grocery.autoAdd", outcome: .denied, reason: .expired, paywall: .renew))
    }

    @Test("seed 002: members of a premium household are premium; the household's refund revokes them at once")
    func householdSharing() {
        var household = Self.household()
        let member = SubscriberFacts(appUserID: "member-2")
        let shared = Self.pantryPal.resolve(member, households: [household], at: Self.day(10))
        #expect(shared.entitlement("premium")?.isActive == true)
        #expect(shared.entitlement("premium")?.source == .household(id: "household-7"))
        #expect(shared.access("items", usage: 500).outcome == .allowed)

        var refunded = household.purchases["7000"]!.currentTransaction!
        refunded.revocationDate = Self.day(11)
        refunded.signedDate = Self.day(11)
        household.record(refunded)
        let after = Self.pantryPal.resolve(member, households: [household], at: Self.day(11))
        #expect(after.entitlement("premium") == nil)
        #expect(after.access("items", usage: 26).outcome == .denied)
    }

    // MARK: Grants, overrides, open access, lifetime

    @Test("an operator's grant entitles for its period and ends when revoked")
    func grants() {
        var facts = SubscriberFacts(appUserID: "support-case")
        facts.grants = [EntitlementGrant(id: "g1", entitlementID: "premium", startsAt: Self.day(0), endsAt: Self.day(30), revokedAt: Self.day(20))]
        #expect(Self.pantryPal.resolve(facts, at: Self.day(10)).entitlement("premium")?.state == .granted)
        #expect(Self.pantryPal.resolve(facts, at: Self.day(21)).entitlement("premium")?.state == .expired)
        #expect(Self.pantryPal.resolve(facts, at: Self.day(21)).access("household.invite").outcome == .denied)
    }

    @Test("the global open-access switch entitles everyone until its end")
    func openAccess() {
        let window = OpenAccessWindow(startsAt: Self.day(0), endsAt: Self.day(7), reason: "store outage")
        let nobody = SubscriberFacts(appUserID: "anyone")
        let during = STR.resolver.resolve(nobody, openAccess: window, at: Self.day(3))
        #expect(during.activeEntitlements.map(\.id) == ["family", "individual"])
        #expect(during.activeEntitlements.allSatisfy { $0.source == .openAccess && $0.expiresAt == Self.day(7) })
        #expect(during.access("childDevices", usage: 5).outcome == .allowed)
        #expect(STR.resolver.resolve(nobody, openAccess: window, at: Self.day(7)).activeEntitlements.isEmpty)
    }

    @Test("a lifetime purchase entitles the same entitlement as the subscriptions, until refunded")
    func lifetime() {
        let resolver = EntitlementResolver(catalog: Fixtures.exampleCatalog("MagicalStories"))
        let apple = AppleFacts(bundleID: "com.magicalstories.app")
        var facts = SubscriberFacts(appUserID: "storyteller")
        facts.record(apple.purchase("com.magicalstories.lifetime", id: "9000", at: Self.day(0)))
        let years = resolver.resolve(facts, at: Self.day(3000))
        #expect(years.entitlement("premium")?.isActive == true)
        #expect(years.entitlement("premium")?.expiresAt == nil)
        #expect(years.entitlement("premium")?.periodType == .lifetime)
        #expect(years.access("growthPath").outcome == .allowed)
        facts.record(apple.purchase("com.magicalstories.lifetime", id: "9000", at: Self.day(0), revoked: Self.day(3001)))
        #expect(resolver.resolve(facts, at: Self.day(3002)).access("growthPath").reason == .revoked)
    }

    @Test("a household's own facts don't count twice when it lists itself")
    func selfHousehold() {
        let household = Self.household()
        let access = Self.pantryPal.resolve(household, households: [household], at: Self.day(10))
        #expect(access.entitlement("premium")?.source == .purchase(originalTransactionID: "7000"))
    }

    @Test("resolution is a pure function of facts and instant")
    func deterministic() {
        let facts = STR.subscriber(product: STR.family)
        #expect(STR.access(facts, at: Self.day(10)) == STR.access(facts, at: Self.day(10)))
        #expect(STR.access(facts, at: Self.day(10)) != STR.access(facts, at: Self.day(50)))
    }
}
