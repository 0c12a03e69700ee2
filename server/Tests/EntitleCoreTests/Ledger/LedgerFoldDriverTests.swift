import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("LedgerFold: the one fold driver")
struct LedgerFoldDriverTests {
    static let apple = AppleFacts()

    /// Counts what it is applied, in order: a fold that is *not* order-independent, to see the order.
    struct Recorder: LedgerFolding {
        var keys: [String] = []
        mutating func apply(_ event: LedgerEvent) { keys.append(event.idempotencyKey) }
    }

    @Test("events come in Apple's order, each idempotency key once, whatever order and copies they arrive in", arguments: 0..<20)
    func orderAndDuplicates(seed: UInt64) {
        let events = LedgerFoldTests.events
        var generator = SeededGenerator(seed: seed)
        var delivered = (events + events.prefix(4)).shuffled(using: &generator)
        delivered.append(contentsOf: events.suffix(2))
        let folded = LedgerFold.fold(delivered, into: Recorder())
        #expect(folded.keys == events.sorted(by: LedgerEvent.precedes).map(\.idempotencyKey))
        #expect(Set(folded.keys).count == folded.keys.count)
    }

    @Test("ties: by signed date (else arrival), purchase date, arrival, then id; the first of an idempotency key stays", arguments: 0..<10)
    func ties(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let dates = [ReferenceTime.start, ReferenceTime.day(1), ReferenceTime.day(2)]
        let events = (0..<60).shuffled(using: &generator).map { n -> LedgerEvent in
            let received = dates.randomElement(using: &generator)!
            let signed = Bool.random(using: &generator) ? nil : dates.randomElement(using: &generator)
            let payload: LedgerEventPayload = Bool.random(using: &generator)
                ? .appTrialStarted(at: ReferenceTime.start)
                : .transaction(Self.apple.subscription("p", original: "o", id: "t\(n)", purchase: dates.randomElement(using: &generator)!, expires: ReferenceTime.day(30)))
            return LedgerEvent(
                id: LedgerEvents.id(n * 7_919 % 1_000), appUserID: "u", source: .admin, idempotencyKey: "k\(Int.random(in: 0..<45, using: &generator))",
                signedDate: signed, receivedAt: received, payload: payload)
        }
        func purchase(_ event: LedgerEvent) -> Date {
            if case .transaction(let transaction) = event.payload { return transaction.purchaseDate ?? .distantPast }
            return .distantPast
        }
        var seen = Set<String>()
        let expected = events.sorted {
            ($0.signedDate ?? $0.receivedAt, purchase($0), $0.receivedAt, $0.id.uuidString) < ($1.signedDate ?? $1.receivedAt, purchase($1), $1.receivedAt, $1.id.uuidString)
        }.filter { seen.insert($0.idempotencyKey).inserted }
        #expect(LedgerFold.ordered(events).map(\.id) == expected.map(\.id))
        #expect(LedgerFold.ordered(events.reversed()).map(\.id) == expected.map(\.id))
        #expect(events.sorted(by: LedgerEvent.precedes).map(\.id) == events.sorted {
            ($0.signedDate ?? $0.receivedAt, purchase($0), $0.receivedAt, $0.id.uuidString) < ($1.signedDate ?? $1.receivedAt, purchase($1), $1.receivedAt, $1.id.uuidString)
        }.map(\.id))
    }

    @Test("the projection and the analytics history fold through the driver: the same facts as applying its ordered events")
    func projectionUsesDriver() {
        var facts = SubscriberFacts(appUserID: "u1")
        for event in LedgerFold.ordered(LedgerFoldTests.events.reversed()) { facts.apply(event) }
        #expect(SubscriberFacts.fold(appUserID: "u1", events: LedgerFoldTests.events) == facts)
    }

    @Test("a REFUND_REVERSED notification names the reversed transaction; other notifications name none")
    func refundReversal() throws {
        let reversal = try #require(LedgerFoldTests.events.compactMap(\.refundReversal).first)
        #expect(reversal.originalTransactionID == "1000")
        #expect(reversal.transactionID == "t5")
        #expect(LedgerFoldTests.events.compactMap(\.refundReversal).count == 1)
    }

    @Test("a transfer removes the purchase from its previous owner and brings its facts to the new one")
    func transferEffect() {
        let facts = SubscriptionFacts(originalTransactionID: "1000")
        let event = LedgerEvent(
            id: LedgerEvents.id(1), appUserID: "new", source: .restore, idempotencyKey: "transfer:1", originalTransactionID: "1000",
            signedDate: ReferenceTime.start, receivedAt: ReferenceTime.start,
            payload: .purchaseTransferred(originalTransactionID: "1000", from: "old", to: "new", facts: facts))
        guard case .received("1000", let carried)? = event.transferEffect(for: "new") else {
            Issue.record("the new owner receives the purchase")
            return
        }
        #expect(carried == facts)
        guard case .removed("1000")? = event.transferEffect(for: "old") else {
            Issue.record("the previous owner loses the purchase")
            return
        }
        #expect(event.transferEffect(for: "someone-else") == nil)
    }
}
