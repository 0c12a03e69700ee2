import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

/// The merge table of docs/identity.md, a test per row: an anonymous subscriber logs in as a known one.
@Suite("SubscriberFacts: merging an anonymous subscriber")
struct SubscriberMergeTests {
    static let apple = AppleFacts()
    static func day(_ n: Double) -> Date { ReferenceTime.day(n) }
    static func merged(_ known: SubscriberFacts, _ anonymous: SubscriberFacts) -> SubscriberFacts {
        var result = known
        result.apply(LedgerEvent(
            id: LedgerEvents.id(1), appUserID: known.appUserID, source: .login, idempotencyKey: "merge", signedDate: day(20), receivedAt: day(20),
            payload: .subscriberMerged(from: anonymous.appUserID, into: known.appUserID, facts: anonymous)))
        return result
    }

    @Test("purchases: the anonymous chains move; when both own purchases, the known subscriber has both")
    func purchases() {
        var anonymous = SubscriberFacts(appUserID: "$anon:1")
        anonymous.record(Self.apple.subscription("com.example.monthly", original: "A", purchase: Self.day(1), expires: Self.day(31)))
        var known = SubscriberFacts(appUserID: "ana")
        known.record(Self.apple.subscription("com.example.yearly", original: "K", purchase: Self.day(2), expires: Self.day(367)))
        #expect(Set(Self.merged(known, anonymous).purchases.keys) == ["A", "K"])
    }

    @Test("a chain both know (a restore on the device before log-in) merges to its latest signed version")
    func sameChain() {
        var anonymous = SubscriberFacts(appUserID: "$anon:1")
        anonymous.record(Self.apple.subscription("com.example.monthly", original: "A", id: "A-2", purchase: Self.day(31), expires: Self.day(62)))
        var known = SubscriberFacts(appUserID: "ana")
        known.record(Self.apple.subscription("com.example.monthly", original: "A", id: "A-1", purchase: Self.day(1), expires: Self.day(31)))
        #expect(Self.merged(known, anonymous).purchases["A"]?.currentTransaction?.transactionId == "A-2")
    }

    @Test("the app-managed trial: the earlier start stands, whoever started it", arguments: [(1.0, 5.0), (5.0, 1.0)])
    func trial(anonymousStart: Double, knownStart: Double) {
        var anonymous = SubscriberFacts(appUserID: "$anon:1")
        anonymous.recordFirstLaunch(at: Self.day(anonymousStart))
        var known = SubscriberFacts(appUserID: "ana")
        known.recordFirstLaunch(at: Self.day(knownStart))
        #expect(Self.merged(known, anonymous).appTrialStartedAt == Self.day(1))
    }

    @Test("usage: uses in one quota window add up; the same idempotency key for the same feature counts once")
    func usage() {
        var anonymous = SubscriberFacts(appUserID: "$anon:1")
        anonymous.usage = [UsageRecord(feature: "conversations", at: Self.day(3), idempotencyKey: "a"), UsageRecord(feature: "conversations", at: Self.day(4), idempotencyKey: "shared")]
        var known = SubscriberFacts(appUserID: "ana")
        known.usage = [UsageRecord(feature: "conversations", at: Self.day(4), idempotencyKey: "shared")]
        let result = Self.merged(known, anonymous)
        #expect(result.usage.filter { $0.feature == "conversations" }.count == 2)
        let quota = QuotaStatus.evaluate(
            feature: "conversations", window: .calendarMonth, allowance: .limited(2), records: result.usage, timeZone: result.timeZone, now: Self.day(5))
        #expect(quota.used == 2)
    }

    @Test("attributes and time zone: the known subscriber's stand; the anonymous one's fill what it never set")
    func attributes() {
        var anonymous = SubscriberFacts(appUserID: "$anon:1")
        anonymous.recordAttribute("email", "anon@example.com", at: Self.day(1))
        anonymous.recordAttribute("locale", "de-DE", at: Self.day(1))
        anonymous.timeZone = TimeZone(identifier: "Europe/Berlin")!
        var known = SubscriberFacts(appUserID: "ana")
        known.recordAttribute("email", "ana@example.com", at: Self.day(0))
        let result = Self.merged(known, anonymous)
        #expect(result.attributes == ["email": "ana@example.com", "locale": "de-DE"])
        #expect(result.timeZone.identifier == "Europe/Berlin")
        var zoned = known
        zoned.timeZone = TimeZone(identifier: "Asia/Tokyo")!
        #expect(Self.merged(zoned, anonymous).timeZone.identifier == "Asia/Tokyo")
    }

    @Test("grants, overrides, household memberships and Ask to Buy requests move, each once")
    func operatorFacts() {
        var anonymous = SubscriberFacts(appUserID: "$anon:1")
        anonymous.grants = [EntitlementGrant(id: "g1", entitlementID: "pro", startsAt: Self.day(1))]
        anonymous.overrides = [AccessOverride(id: "o1", startsAt: Self.day(1))]
        anonymous.households = ["family-1": .init(joinedAt: Self.day(2))]
        anonymous.recordPurchaseRequest(productID: "com.example.monthly", at: Self.day(3))
        var known = SubscriberFacts(appUserID: "ana")
        known.grants = [EntitlementGrant(id: "g1", entitlementID: "pro", startsAt: Self.day(1))]
        let result = Self.merged(known, anonymous)
        #expect(result.grants.map(\.id) == ["g1"])
        #expect(result.overrides.map(\.id) == ["o1"])
        #expect(result.householdIDs(at: Self.day(5)) == ["family-1"])
        #expect(result.pendingPurchases["com.example.monthly"]?.requestedAt == Self.day(3))
    }
}
