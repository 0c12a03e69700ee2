import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("SubscriberAccess")
struct SubscriberAccessTests {
    static func day(_ n: Double) -> Date { ReferenceTime.day(n) }
    static let epilogue = EntitlementResolver(catalog: Fixtures.exampleCatalog("Epilogue"))
    static let tiers = EntitlementResolver(catalog: Fixtures.exampleCatalog("ScreenTimeRewardsTiers"))
    static let apple = AppleFacts()

    static func reader(conversations: [String] = [], timeZone: String = "UTC") -> SubscriberFacts {
        SubscriberFacts(
            appUserID: "reader",
            usage: conversations.enumerated().map { UsageRecord(feature: "conversations", at: ReferenceTime.instant($1), idempotencyKey: "c\($0)") },
            timeZone: TimeZone(identifier: timeZone)!)
    }

    @Test("seed 001: two free conversations a calendar month; the third is refused with the reset instant")
    func freeQuota() throws {
        let facts = Self.reader(conversations: ["2026-03-02T10:00:00Z", "2026-03-15T10:00:00Z"])
        let access = Self.epilogue.resolve(facts, at: ReferenceTime.instant("2026-03-20T10:00:00Z"))
        let decision = access.access("conversations")
        #expect(decision.outcome == .denied)
        #expect(decision.reason == .quotaExhausted(limit: 2, resetsAt: ReferenceTime.instant("2026-04-01T00:00:00Z")))
        #expect(decision.paywall == .subscribe)
        #expect(access.quota("conversations")?.remaining == 0)

        let april = Self.epilogue.resolve(facts, at: ReferenceTime.instant("2026-04-01T00:00:00Z"))
        #expect(april.access("conversations").outcome == .allowed)
        #expect(april.quota("conversations")?.remaining == 2)
    }

    @Test("seed 001: one conversation left allows one, not two at once")
    func quotaUsage() {
        let access = Self.epilogue.resolve(Self.reader(conversations: ["2026-03-02T10:00:00Z"]), at: ReferenceTime.instant("2026-03-03T00:00:00Z"))
        #expect(access.access("conversations", usage: 1).outcome == .allowed)
        #expect(access.access("conversations", usage: 2).outcome == .denied)
    }

    @Test("seed 001: Plus lifts the quota")
    func plusLiftsQuota() {
        var facts = Self.reader(conversations: ["2026-03-02T10:00:00Z", "2026-03-03T10:00:00Z", "2026-03-04T10:00:00Z"])
        let start = ReferenceTime.instant("2026-03-01T00:00:00Z")
        facts.record(Self.apple.subscription("com.epilogue.plus.monthly", original: "5000", purchase: start, expires: ISODuration(months: 1).added(to: start)))
        let access = Self.epilogue.resolve(facts, at: ReferenceTime.instant("2026-03-10T00:00:00Z"))
        #expect(access.access("conversations") == AccessDecision(
            feature: "conversations", outcome: .allowed, allowance: .unlimited, quota: access.quota("conversations")))
        #expect(access.quota("conversations")?.used == 3)
        #expect(access.quota("conversations")?.remaining == nil)
    }

    @Test("seed 001's debug bypass: an override lifts every limit for one subscriber, for its period")
    func debugBypass() {
        var facts = Self.reader(conversations: ["2026-03-02T10:00:00Z", "2026-03-03T10:00:00Z"])
        facts.overrides = [AccessOverride(id: "gandalf", startsAt: ReferenceTime.instant("2026-03-01T00:00:00Z"), endsAt: ReferenceTime.instant("2026-03-31T00:00:00Z"), reason: "debug bypass")]
        let during = Self.epilogue.resolve(facts, at: ReferenceTime.instant("2026-03-10T00:00:00Z"))
        #expect(during.isOverridden)
        #expect(during.access("conversations").outcome == .allowed)
        #expect(during.access("insights.advanced").outcome == .allowed)
        let after = Self.epilogue.resolve(facts, at: ReferenceTime.instant("2026-03-31T00:00:00Z"))
        #expect(!after.isOverridden)
        #expect(after.access("conversations").outcome == .denied)
        #expect(after.quota("conversations")?.allowance == .limited(2))
    }

    @Test("seed 000: denial reasons and paywall triggers", arguments: [
        ("never subscribed", "reports.export", 1, "no_subscription", PaywallTrigger.subscribe),
        ("StoreKit trial ended unconverted", "reports.export", 1, "trial_expired", .convertTrial),
        ("paid subscription expired", "reports.export", 1, "expired", .renew),
        ("billing retry", "reports.export", 1, "billing_issue", .updatePayment),
        ("one-child plan, third child", "childProfiles", 3, "limit_exceeded", .upgrade),
    ])
    func reasons(situation: String, feature: String, usage: Int, reason: String, paywall: PaywallTrigger) {
        var facts = SubscriberFacts(appUserID: "parent")
        let product = "screentime.1child.monthly"
        switch situation {
        case "StoreKit trial ended unconverted":
            facts.record(Self.apple.subscription(product, original: "1", purchase: Self.day(0), expires: Self.day(14), offer: .introductoryOffer, discount: .freeTrial))
            facts.record(Self.apple.renewal(original: "1", product: product, autoRenew: .off, signed: Self.day(2), expirationIntent: .customerCancelled))
        case "paid subscription expired":
            facts.record(Self.apple.subscription(product, original: "1", purchase: Self.day(0), expires: Self.day(14)))
            facts.record(Self.apple.renewal(original: "1", product: product, autoRenew: .off, signed: Self.day(2), expirationIntent: .customerCancelled))
        case "billing retry":
            facts.record(Self.apple.subscription(product, original: "1", purchase: Self.day(0), expires: Self.day(14)))
            facts.record(Self.apple.renewal(original: "1", product: product, signed: Self.day(14), expirationIntent: .billingError, billingRetry: true))
        case "one-child plan, third child":
            facts.record(Self.apple.subscription(product, original: "1", purchase: Self.day(0), expires: Self.day(31)))
        default:
            break
        }
        let decision = Self.tiers.resolve(facts, at: Self.day(20)).access(feature, usage: usage)
        #expect(decision.outcome == .denied)
        #expect(decision.reason?.code == reason)
        #expect(decision.paywall == paywall)
    }

    @Test("seed 000: the allowed maximum comes with a limit denial, per tier", arguments: [
        ("screentime.1child.monthly", 1), ("screentime.2child.yearly", 2), ("screentime.family.monthly", 5),
    ])
    func tierMaximum(product: String, maximum: Int) {
        var facts = SubscriberFacts(appUserID: "parent")
        facts.record(Self.apple.subscription(product, original: "1", purchase: Self.day(0), expires: Self.day(31)))
        let access = Self.tiers.resolve(facts, at: Self.day(1))
        #expect(access.access("childProfiles", usage: maximum).outcome == .allowed)
        #expect(access.access("childProfiles", usage: maximum + 1).reason == .limitExceeded(maximum: maximum))
        // The family plan is the largest: nothing to upgrade to.
        #expect(access.access("childProfiles", usage: maximum + 1).paywall == (maximum == 5 ? nil : .upgrade))
    }

    @Test("Apple's billing grace period allows with a warning to update the payment method")
    func billingGraceWarns() {
        var facts = SubscriberFacts(appUserID: "parent")
        facts.record(Self.apple.subscription("screentime.2child.monthly", original: "1", purchase: Self.day(0), expires: Self.day(31)))
        facts.record(Self.apple.renewal(original: "1", product: "screentime.2child.monthly", signed: Self.day(31), billingRetry: true, graceEnds: Self.day(37)))
        let decision = Self.tiers.resolve(facts, at: Self.day(33)).access("reports.export")
        #expect(decision == AccessDecision(
            feature: "reports.export", outcome: .allowedWithWarning, reason: .billingIssue(gracePeriodEndsAt: Self.day(37)), paywall: .updatePayment))
    }

    @Test("a feature the catalog doesn't declare is denied as unknown, with no paywall")
    func unknownFeature() {
        let decision = Self.tiers.resolve(SubscriberFacts(appUserID: "x"), at: Self.day(0)).access("teleport")
        #expect(decision == AccessDecision(feature: "teleport", outcome: .denied, reason: .unknownFeature))
    }

    @Test("a feature no entitlement includes is denied as not included, with no paywall")
    func notIncluded() {
        let catalog = Catalog(
            products: [Product(id: "p", kind: .autoRenewable, entitlementIDs: ["pro"])], features: ["beta"], entitlements: [Entitlement(id: "pro", productIDs: ["p"], access: AccessLevel(features: []))])
        var facts = SubscriberFacts(appUserID: "x")
        facts.record(Self.apple.subscription("p", original: "1", purchase: Self.day(0), expires: Self.day(31)))
        let decision = EntitlementResolver(catalog: catalog).resolve(facts, at: Self.day(1)).access("beta")
        #expect(decision == AccessDecision(feature: "beta", outcome: .denied, reason: .notIncluded))
    }
}
