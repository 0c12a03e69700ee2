import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("AnomalyDetector")
struct AnomalyDetectorTests {
    typealias STR = ScreenTimeRewardsScenarios
    static func day(_ n: Double) -> Date { STR.day(n) }
    static let token = UUID(uuidString: "5C1E6B2A-0F3D-4C8E-9A71-2B4D6E8F0A13")!

    /// alice's Individual subscription, chain S, bought on day 1.
    static func owner(_ user: AppUserID = "alice") -> [LedgerEvent] {
        [LedgerEvents.appTransaction(1, appUserID: user, STR.apple.subscription(STR.individual, original: "S", purchase: day(1), expires: day(31)))]
    }

    static func claim(_ seed: Int, on owner: AppUserID, by claimant: AppUserID, day n: Double) -> LedgerEvent {
        LedgerEvent(
            id: LedgerEvents.id(seed), appUserID: owner, source: .restore, idempotencyKey: "purchase-claim:S:\(claimant)", signedDate: day(n),
            receivedAt: day(n), payload: .purchaseClaimed(originalTransactionID: "S", by: claimant, at: day(n)))
    }

    static func anomalies(_ facts: SubscriberFacts, catalog: Catalog = STR.catalog, at n: Double) -> [Anomaly] {
        AnomalyDetector.anomalies(in: facts, catalog: catalog, at: day(n))
    }

    @Test("a purchase three other accounts claimed within 30 days is flagged from the third claim; fewer, or further apart, is not")
    func sharedPurchase() {
        let claims = [Self.claim(2, on: "alice", by: "bob", day: 2), Self.claim(3, on: "alice", by: "carol", day: 3)]
        let two = LedgerFold.fold(Self.owner() + claims, into: SubscriberFacts(appUserID: "alice"))
        #expect(Self.anomalies(two, at: 10).isEmpty)
        let third = Self.claim(4, on: "alice", by: "dave", day: 9)
        let three = LedgerFold.fold(Self.owner() + claims + [third, third], into: SubscriberFacts(appUserID: "alice"))
        #expect(Self.anomalies(three, at: 10) == [
            Anomaly(kind: .sharedPurchase, since: Self.day(9), count: 3, threshold: 3, originalTransactionID: "S"),
        ])
        // Before the third claim's instant the answer has no flag: flags are computed at an instant.
        #expect(Self.anomalies(three, at: 8.5).isEmpty)
        let apart = [Self.claim(2, on: "alice", by: "bob", day: 2), Self.claim(3, on: "alice", by: "carol", day: 20), Self.claim(4, on: "alice", by: "dave", day: 40)]
        #expect(Self.anomalies(LedgerFold.fold(Self.owner() + apart, into: SubscriberFacts(appUserID: "alice")), at: 41).isEmpty)
        // The owner submitting their own purchase is no claim.
        let own = [Self.claim(2, on: "alice", by: "alice", day: 2)] + claims + [Self.claim(5, on: "alice", by: "alice", day: 4)]
        #expect(Self.anomalies(LedgerFold.fold(Self.owner() + own, into: SubscriberFacts(appUserID: "alice")), at: 10).isEmpty)
    }

    @Test("claims fold to the same facts in any order, a claim signed before its purchase's transaction among them", arguments: [1, 2, 3, 4] as [UInt64])
    func claimsCommute(seed: UInt64) {
        // The purchase's transaction signed on day 5, claims on days 2 to 4: Apple's order folds the claims first.
        let later = [LedgerEvents.appTransaction(1, appUserID: "alice", STR.apple.subscription(
            STR.individual, original: "S", purchase: Self.day(1), expires: Self.day(31), signed: Self.day(5)))]
        let events = later + [Self.claim(2, on: "alice", by: "bob", day: 2), Self.claim(3, on: "alice", by: "carol", day: 3), Self.claim(4, on: "alice", by: "dave", day: 4)]
        var generator = SeededGenerator(seed: seed)
        var applied = SubscriberFacts(appUserID: "alice")
        for event in events.shuffled(using: &generator) { applied.apply(event) }
        let folded = LedgerFold.fold(events, into: SubscriberFacts(appUserID: "alice"))
        #expect(applied == folded)
        #expect(Self.anomalies(folded, at: 10).map(\.kind) == [.sharedPurchase])
    }

    @Test("restored from account to account, the purchase carries its claims: the third holder is flagged")
    func claimsTravel() {
        var ledgers: [AppUserID: [LedgerEvent]] = ["alice": Self.owner()]
        var holder: AppUserID = "alice"
        for (index, next) in (["bob", "carol", "dave"] as [AppUserID]).enumerated() {
            let at = Double(index) + 2
            ledgers[holder, default: []].append(Self.claim(10 + index, on: holder, by: next, day: at))
            let facts = LedgerFold.fold(ledgers[holder] ?? [], into: SubscriberFacts(appUserID: holder))
            let transfer = PurchaseTransfer(originalTransactionID: "S", from: holder, to: next, at: Self.day(at + 0.5), id: UUID(), outgoingID: UUID())
            ledgers[holder, default: []].append(transfer.outgoing)
            ledgers[next, default: []].append(transfer.incoming(carrying: facts.carried("S")))
            holder = next
        }
        let dave = LedgerFold.fold(ledgers["dave"] ?? [], into: SubscriberFacts(appUserID: "dave"))
        #expect(dave.purchaseClaims["S"]?.keys.sorted() == ["bob", "carol", "dave"])
        #expect(Self.anomalies(dave, at: 10).map(\.kind) == [.sharedPurchase])
        // Those who passed it on hold it no more: nothing to flag on them.
        for user in ["alice", "bob", "carol"] as [AppUserID] {
            #expect(Self.anomalies(LedgerFold.fold(ledgers[user] ?? [], into: SubscriberFacts(appUserID: user)), at: 10).isEmpty)
        }
    }

    static func trials(_ days: [Double], tokens: [UUID?]) -> SubscriberFacts {
        var facts = SubscriberFacts(appUserID: "u")
        for (index, start) in days.enumerated() {
            facts.record(STR.apple.subscription(
                STR.individual, original: "T\(index)", purchase: day(start), expires: day(start + 7), offer: .introductoryOffer, discount: .freeTrial,
                appAccountToken: tokens[index]))
        }
        return facts
    }

    @Test("three introductory offers under one appAccountToken within 30 days are a trial burst; other tokens, none, or 30 days apart are not")
    func trialBurst() {
        let burst = Self.trials([1, 5, 12], tokens: [Self.token, Self.token, Self.token])
        #expect(Self.anomalies(burst, at: 20) == [Anomaly(kind: .trialBurst, since: Self.day(12), count: 3, threshold: 3, appAccountToken: Self.token)])
        #expect(Self.anomalies(Self.trials([1, 5, 12], tokens: [Self.token, Self.token, UUID()]), at: 20).isEmpty)
        #expect(Self.anomalies(Self.trials([1, 5, 12], tokens: [nil, nil, nil]), at: 20).isEmpty)
        #expect(Self.anomalies(Self.trials([1, 31, 62], tokens: [Self.token, Self.token, Self.token]), at: 70).isEmpty)
        // A fourth far later keeps the burst's first completion.
        let later = Self.trials([1, 5, 12, 200], tokens: [Self.token, Self.token, Self.token, Self.token])
        #expect(Self.anomalies(later, at: 201).first?.since == Self.day(12))
        #expect(Self.anomalies(later, at: 201).first?.count == 4)
    }

    static let normed = """
        "anomalies":{"usage":{"exports":20},"trialBurst":{"count":2,"days":7}}
        """

    @Test("usage above the quota's norm in its current window is flagged from the use that passed it; the next window starts clean")
    func usageAboveNorm() throws {
        let catalog = try CatalogLoaderTests.load(entitlements: CatalogOfferingsTests.with(Self.normed))
        var facts = SubscriberFacts(appUserID: "u")
        let start = ReferenceTime.instant("2026-03-02T00:00:00Z")
        for index in 0..<25 {
            facts.usage.append(UsageRecord(feature: "exports", at: start.addingTimeInterval(Double(index) * 3_600), idempotencyKey: "e\(index)"))
        }
        // The same use sent twice counts once.
        facts.usage.append(UsageRecord(feature: "exports", at: start, idempotencyKey: "e0"))
        let now = ReferenceTime.instant("2026-03-20T00:00:00Z")
        #expect(AnomalyDetector.anomalies(in: facts, catalog: catalog, at: now) == [
            Anomaly(kind: .usageAboveNorm, since: start.addingTimeInterval(20 * 3_600), count: 25, threshold: 20, feature: "exports"),
        ])
        #expect(AnomalyDetector.anomalies(in: facts, catalog: catalog, at: start.addingTimeInterval(19.5 * 3_600)).isEmpty)
        #expect(AnomalyDetector.anomalies(in: facts, catalog: catalog, at: ReferenceTime.instant("2026-04-02T00:00:00Z")).isEmpty)
        // Without a norm, any amount of use is no anomaly.
        #expect(AnomalyDetector.anomalies(in: facts, catalog: try CatalogLoaderTests.load(), at: now).isEmpty)
    }

    @Test("the rules: defaults, the file's, and values out of range or naming no quota refused where they are")
    func rules() throws {
        #expect(try CatalogLoaderTests.load().anomalyRules == .standard)
        let chosen = try CatalogLoaderTests.load(entitlements: CatalogOfferingsTests.with(Self.normed))
        #expect(chosen.anomalyRules == AnomalyRules(trialBurst: AnomalyRules.Burst(count: 2, days: 7), usageNorms: ["exports": 20]))
        for (json, path) in [
            (#""anomalies":{"sharedPurchase":{"count":1}}"#, "anomalies.sharedPurchase.count"),
            (#""anomalies":{"trialBurst":{"days":400}}"#, "anomalies.trialBurst.days"),
            (#""anomalies":{"usage":{"downloads":5}}"#, "anomalies.usage.downloads"),
            (#""anomalies":{"usage":{"exports":0}}"#, "anomalies.usage.exports"),
        ] {
            #expect(CatalogLoaderTests.errors(entitlements: CatalogOfferingsTests.with(json)).map(\.path) == [path])
        }
    }

    @Test("the answer lists the flags, and a webhook reports each once: when it appears, not as its count grows")
    func answerAndWebhook() {
        let resolver = EntitlementResolver(catalog: STR.catalog)
        let claims = [Self.claim(2, on: "alice", by: "bob", day: 2), Self.claim(3, on: "alice", by: "carol", day: 3)]
        let before = LedgerFold.fold(Self.owner() + claims, into: SubscriberFacts(appUserID: "alice"))
        let flagged = LedgerFold.fold(Self.owner() + claims + [Self.claim(4, on: "alice", by: "dave", day: 4)], into: SubscriberFacts(appUserID: "alice"))
        let more = LedgerFold.fold(
            Self.owner() + claims + [Self.claim(4, on: "alice", by: "dave", day: 4), Self.claim(5, on: "alice", by: "erin", day: 5)],
            into: SubscriberFacts(appUserID: "alice"))
        let (a, b, c) = (resolver.resolve(before, at: Self.day(6)), resolver.resolve(flagged, at: Self.day(6)), resolver.resolve(more, at: Self.day(6)))
        #expect(b.anomalies.map(\.count) == [3] && c.anomalies.map(\.count) == [4])
        let changes = SubscriberChanges.between(a, b)
        #expect(changes.map(\.type) == [.anomalyFlagged])
        #expect(changes.first?.anomaly?.kind == .sharedPurchase && changes.first?.originalTransactionID == "S")
        #expect(SubscriberChanges.between(b, c).isEmpty)
        // The access itself is untouched.
        #expect(a.entitlements == b.entitlements && a.access == b.access)
    }
}
