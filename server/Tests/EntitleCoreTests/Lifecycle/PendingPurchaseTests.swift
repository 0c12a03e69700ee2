import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("PendingPurchase")
struct PendingPurchaseTests {
    typealias STR = ScreenTimeRewardsScenarios
    static func day(_ n: Double) -> Date { ReferenceTime.day(n) }
    static func hours(_ n: Double, after start: Date) -> Date { start.addingTimeInterval(n * 3600) }

    static func event(_ seed: Int, _ payload: LedgerEventPayload, at: Date) -> LedgerEvent {
        LedgerEvent(
            id: LedgerEvents.id(seed), appUserID: "kid", source: .purchaseRequest, idempotencyKey: "request:\(seed)", signedDate: at,
            receivedAt: at, payload: payload)
    }
    static func requested(_ seed: Int, at: Date) -> LedgerEvent { event(seed, .purchaseRequested(productID: ProductID(STR.family), at: at), at: at) }
    static func declined(_ seed: Int, at: Date) -> LedgerEvent { event(seed, .purchaseDeclined(productID: ProductID(STR.family), at: at), at: at) }
    static func approved(_ seed: Int, at: Date) -> LedgerEvent {
        LedgerEvents.appTransaction(seed, appUserID: "kid", STR.apple.subscription(STR.family, original: "7000", purchase: at, expires: day(40)))
    }
    static func facts(_ events: [LedgerEvent]) -> SubscriberFacts { SubscriberFacts.fold(appUserID: "kid", events: events) }

    @Test("a request shows the product's entitlements as pending, with no access, until 24 hours pass")
    func pendingUntilItLapses() {
        let facts = Self.facts([Self.requested(1, at: Self.day(1))])
        let waiting = STR.resolver.resolve(facts, at: Self.hours(23, after: Self.day(1)))
        #expect(waiting.pendingPurchases.map(\.productID.rawValue) == [STR.family])
        #expect(waiting.pendingPurchases.first?.expiresAt == Self.day(2))
        #expect(waiting.entitlement("family")?.state == .pending)
        #expect(waiting.entitlement("family")?.source == .pendingPurchase(productID: ProductID(STR.family)))
        #expect(waiting.entitlement("family")?.isActive == false)
        #expect(waiting.subscriptions.isEmpty)

        let lapsed = STR.resolver.resolve(facts, at: Self.day(2))
        #expect(lapsed.pendingPurchases.isEmpty)
        #expect(lapsed.entitlement("family")?.state != .pending)
    }

    @Test("asking again restarts the 24 hours")
    func askingAgainRestarts() {
        let facts = Self.facts([Self.requested(1, at: Self.day(1)), Self.requested(2, at: Self.hours(20, after: Self.day(1)))])
        let access = STR.resolver.resolve(facts, at: Self.hours(30, after: Self.day(1)))
        #expect(access.pendingPurchases.map(\.expiresAt) == [Self.hours(44, after: Self.day(1))])
    }

    @Test("the approved transaction ends the request and grants the product")
    func approvalEndsIt() {
        let facts = Self.facts([Self.requested(1, at: Self.day(1)), Self.approved(2, at: Self.hours(3, after: Self.day(1)))])
        let before = STR.resolver.resolve(facts, at: Self.hours(2, after: Self.day(1)))
        #expect(before.pendingPurchases.count == 1)
        let after = STR.resolver.resolve(facts, at: Self.hours(4, after: Self.day(1)))
        #expect(after.pendingPurchases.isEmpty)
        #expect(after.entitlement("family")?.state == .active)
    }

    @Test("a transaction of the product bought before the request does not answer it")
    func earlierPurchaseIsNoAnswer() {
        let facts = Self.facts([Self.approved(1, at: Self.day(0)), Self.requested(2, at: Self.day(1))])
        #expect(facts.purchasesAwaitingApproval(at: Self.hours(1, after: Self.day(1))).map(\.productID.rawValue) == [STR.family])
    }

    @Test("a decline ends the request; a request after it is pending again")
    func declineThenAskAgain() {
        let declined = Self.facts([Self.requested(1, at: Self.day(1)), Self.declined(2, at: Self.hours(1, after: Self.day(1)))])
        #expect(declined.purchasesAwaitingApproval(at: Self.hours(2, after: Self.day(1))).isEmpty)
        #expect(declined.purchasesAwaitingApproval(at: Self.hours(0.5, after: Self.day(1))).count == 1)

        let again = Self.facts([
            Self.requested(1, at: Self.day(1)), Self.declined(2, at: Self.hours(1, after: Self.day(1))),
            Self.requested(3, at: Self.hours(5, after: Self.day(1))),
        ])
        #expect(again.purchasesAwaitingApproval(at: Self.hours(6, after: Self.day(1))).count == 1)
    }

    @Test("requests, declines and approvals in any order, duplicated, fold to the same facts", arguments: 0..<24)
    func orderIndependent(seed: Int) {
        let events = [
            Self.requested(1, at: Self.day(1)), Self.declined(2, at: Self.hours(1, after: Self.day(1))),
            Self.requested(3, at: Self.hours(5, after: Self.day(1))), Self.approved(4, at: Self.hours(9, after: Self.day(1))),
        ]
        var generator = SeededGenerator(seed: UInt64(seed))
        let shuffled = (events + events.prefix(seed % 4)).shuffled(using: &generator)
        let reference = Self.facts(events)
        var incremental = SubscriberFacts(appUserID: "kid")
        shuffled.forEach { incremental.apply($0) }
        #expect(incremental == reference)
        for hour in [0.5, 2, 6, 10] {
            let at = Self.hours(hour, after: Self.day(1))
            #expect(incremental.purchasesAwaitingApproval(at: at) == reference.purchasesAwaitingApproval(at: at))
        }
    }

    @Test("a projection written before Ask to Buy decodes with no requests")
    func oldProjectionDecodes() throws {
        var facts = Self.facts([Self.approved(1, at: Self.day(0))])
        facts.pendingPurchases = [:]
        let encoder = JSONEncoder()
        var json = try #require(try JSONSerialization.jsonObject(with: encoder.encode(facts)) as? [String: Any])
        json.removeValue(forKey: "pendingPurchases")
        let decoded = try JSONDecoder().decode(SubscriberFacts.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(decoded == facts)
    }
}
