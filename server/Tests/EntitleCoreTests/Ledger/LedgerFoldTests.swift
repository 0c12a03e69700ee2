import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("SubscriberFacts: ledger fold")
struct LedgerFoldTests {
    static let apple = AppleFacts()
    static func day(_ n: Double) -> Date { ReferenceTime.day(n) }
    static let product = "com.example.monthly"

    /// A subscription's notifications: trial, renewals, a refund of the last renewal and its reversal,
    /// a grant and its revocation, and usage.
    static let events: [LedgerEvent] = {
        var events: [LedgerEvent] = []
        var seed = 0
        func next() -> Int { seed += 1; return seed }
        for period in 0..<6 {
            let start = day(Double(period) * 30)
            let transaction = apple.subscription(product, original: "1000", id: "t\(period)", purchase: start, expires: day(Double(period + 1) * 30),
                                                 offer: period == 0 ? .introductoryOffer : nil, discount: period == 0 ? .freeTrial : nil,
                                                 reason: period == 0 ? .purchase : .renewal)
            events.append(LedgerEvents.notification(next(), appUserID: "u1", type: period == 0 ? .subscribed : .didRenew, transaction: transaction,
                                                     renewalInfo: apple.renewal(original: "1000", product: product, signed: start)))
        }
        var refunded = apple.subscription(product, original: "1000", id: "t5", purchase: day(150), expires: day(180), signed: day(155))
        refunded.revocationDate = day(155)
        events.append(LedgerEvents.notification(next(), appUserID: "u1", type: .refund, transaction: refunded))
        var reinstated = refunded
        reinstated.revocationDate = nil
        reinstated.signedDate = day(158)
        events.append(LedgerEvents.notification(next(), appUserID: "u1", type: .refundReversed, transaction: reinstated))
        events.append(LedgerEvents.admin(next(), appUserID: "u1", at: day(10), .grant(EntitlementGrant(id: "g1", entitlementID: "pro", startsAt: day(10)))))
        events.append(LedgerEvents.admin(next(), appUserID: "u1", at: day(20), .grantRevoked(grantID: "g1", at: day(20))))
        for index in 0..<3 {
            events.append(LedgerEvent(id: LedgerEvents.id(next()), appUserID: "u1", source: .usage, idempotencyKey: "usage:k\(index)",
                                      signedDate: day(Double(index)), receivedAt: day(Double(index)),
                                      payload: .usage(UsageRecord(feature: "exports", at: day(Double(index)), idempotencyKey: "k\(index)"))))
        }
        return events
    }()

    @Test("the fold is the same for any permutation with duplicates", arguments: 0..<20)
    func permutations(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let expected = SubscriberFacts.fold(appUserID: "u1", events: Self.events)
        var delivered = Self.events.shuffled(using: &generator)
        delivered += (0..<5).map { _ in Self.events.randomElement(using: &generator)! }
        #expect(SubscriberFacts.fold(appUserID: "u1", events: delivered.shuffled(using: &generator)) == expected)
    }

    @Test("applying events one by one in any arrival order equals folding them all", arguments: 0..<20)
    func incremental(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var facts = SubscriberFacts(appUserID: "u1")
        for event in Self.events.shuffled(using: &generator) + Self.events.shuffled(using: &generator) { facts.apply(event) }
        #expect(facts == SubscriberFacts.fold(appUserID: "u1", events: Self.events))
    }

    @Test("the fold reaches Apple's state: refund reversed restores, the grant was revoked, usage counted once")
    func state() throws {
        let facts = SubscriberFacts.fold(appUserID: "u1", events: Self.events + Self.events)
        let status = try #require(SubscriptionLifecycle.status(of: facts.purchases["1000"]!, at: Self.day(160)))
        #expect(status.state == .active)
        #expect(status.currentTransactionID == "t5")
        #expect(facts.grants.first?.revokedAt == Self.day(20))
        #expect(facts.usage.count == 3)
    }

    @Test("a purchase transferred away leaves the old subscriber's facts")
    func transfer() {
        var events = Self.events
        events.append(LedgerEvents.admin(900, appUserID: "u1", at: Self.day(200), .purchaseTransferred(originalTransactionID: "1000", from: "u1", to: "u2", facts: nil)))
        #expect(SubscriberFacts.fold(appUserID: "u1", events: events).purchases["1000"] == nil)
        let chain = SubscriberFacts.fold(appUserID: "u1", events: Self.events).purchases["1000"]
        let incoming = LedgerEvents.admin(901, appUserID: "u2", at: Self.day(200),
                                          .purchaseTransferred(originalTransactionID: "1000", from: "u1", to: "u2", facts: chain))
        #expect(SubscriberFacts.fold(appUserID: "u2", events: [incoming]).purchases["1000"] == chain)
    }

    @Test("app trial extensions add up in any order, each once however often it arrives, and a login carries them over")
    func appTrialExtensions() {
        let first = AppTrialExtension(id: "x1", days: 7, reason: "ticket 1", at: Self.day(31))
        let second = AppTrialExtension(id: "x2", days: 3, at: Self.day(40))
        let events = [
            LedgerEvents.admin(710, appUserID: "kid", at: Self.day(31), .appTrialExtended(first)),
            LedgerEvents.admin(711, appUserID: "kid", at: Self.day(40), .appTrialExtended(second)),
            LedgerEvents.admin(712, appUserID: "kid", at: Self.day(31), .appTrialExtended(first)),
        ]
        let folded = SubscriberFacts.fold(appUserID: "kid", events: events)
        #expect(folded.appTrialExtraDays == 10)
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<10 {
            var facts = SubscriberFacts(appUserID: "kid")
            for event in events.shuffled(using: &generator) { facts.apply(event) }
            #expect(facts == folded)
        }
        var known = SubscriberFacts(appUserID: "account")
        known.absorb(folded)
        known.absorb(folded)
        #expect(known.appTrialExtraDays == 10)
        var capped = SubscriberFacts(appUserID: "kid")
        capped.appTrialExtensions["huge"] = AppTrialExtension(id: "huge", days: 9_999, at: Self.day(1))
        #expect(capped.appTrialExtraDays == AppTrialExtension.longest, "a stored value out of range adds no more than the most allowed")
    }

    @Test("household membership: joins and leaves give the same current memberships in any order")
    func households() {
        let events = [
            LedgerEvents.admin(700, appUserID: "member", at: Self.day(1), .householdJoined(householdID: "home", at: Self.day(1))),
            LedgerEvents.admin(701, appUserID: "member", at: Self.day(5), .householdLeft(householdID: "home", at: Self.day(5))),
            LedgerEvents.admin(702, appUserID: "member", at: Self.day(9), .householdJoined(householdID: "home", at: Self.day(9))),
            LedgerEvents.admin(703, appUserID: "member", at: Self.day(2), .householdJoined(householdID: "cabin", at: Self.day(2))),
        ]
        let folded = SubscriberFacts.fold(appUserID: "member", events: events)
        // The latest membership interval is kept: the rejoin on day 9 is the membership now.
        #expect(folded.householdIDs(at: Self.day(10)) == ["cabin", "home"])
        #expect(folded.householdIDs(at: Self.day(6)) == ["cabin"])
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<10 {
            var facts = SubscriberFacts(appUserID: "member")
            for event in events.shuffled(using: &generator) { facts.apply(event) }
            #expect(facts.householdIDs(at: Self.day(10)) == folded.householdIDs(at: Self.day(10)))
            #expect(facts.householdIDs(at: Self.day(6)) == folded.householdIDs(at: Self.day(6)))
        }
    }

    @Test("facts survive a round trip through JSON, as the projection is stored")
    func codable() throws {
        let facts = SubscriberFacts.fold(appUserID: "u1", events: Self.events)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        #expect(try decoder.decode(SubscriberFacts.self, from: encoder.encode(facts)) == facts)
        let event = Self.events[0]
        #expect(try decoder.decode(LedgerEvent.self, from: encoder.encode(event)) == event)
    }
}
