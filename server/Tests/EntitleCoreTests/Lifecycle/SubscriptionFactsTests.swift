import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("SubscriptionFacts")
struct SubscriptionFactsTests {
    static let apple = AppleFacts()
    static func day(_ n: Double) -> Date { ReferenceTime.day(n) }

    /// What a year of one subscription sends: a trial, renewals, a downgrade request, a billing
    /// failure and recovery, a refund and its reversal, each transaction and renewal info signed at
    /// its moment, as separate facts.
    enum Fact: Sendable {
        case transaction(JWSTransactionDecodedPayload)
        case renewal(JWSRenewalInfoDecodedPayload)
        case reversal(String, Date)
    }

    static let history: [Fact] = {
        var facts: [Fact] = []
        var start = ReferenceTime.start
        for period in 0..<12 {
            let end = ISODuration(months: 1).added(to: start)
            let product = period < 6 ? "family.monthly" : "individual.monthly"
            let transaction = apple.subscription(
                product, original: "1000", id: "t\(period)", purchase: start, expires: end,
                offer: period == 0 ? .introductoryOffer : nil, discount: period == 0 ? .freeTrial : nil,
                reason: period == 0 ? .purchase : .renewal)
            facts.append(.transaction(transaction))
            facts.append(.renewal(apple.renewal(original: "1000", product: product, autoRenewProduct: period == 5 ? "individual.monthly" : nil, signed: start)))
            if period == 8 {
                facts.append(.renewal(apple.renewal(original: "1000", product: product, signed: end, expirationIntent: .billingError, billingRetry: true, graceEnds: end.addingTimeInterval(6 * 86_400))))
            }
            if period == 10 {
                var refunded = transaction
                refunded.revocationDate = start.addingTimeInterval(86_400)
                refunded.revocationReason = .other
                refunded.signedDate = refunded.revocationDate
                facts.append(.transaction(refunded))
                facts.append(.reversal("t10", start.addingTimeInterval(3 * 86_400)))
            }
            start = end
        }
        return facts
    }()

    static func fold(_ facts: [Fact]) -> SubscriptionFacts {
        var result = SubscriptionFacts(originalTransactionID: "1000")
        for fact in facts {
            switch fact {
            case .transaction(let transaction): result.record(transaction)
            case .renewal(let info): result.record(info)
            case .reversal(let id, let date): result.recordRefundReversal(transactionID: id, signedDate: date)
            }
        }
        return result
    }

    @Test("shuffled, duplicated and replayed facts fold to the same facts and states", arguments: 0..<25)
    func orderIndependent(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let inOrder = Self.fold(Self.history)
        var delivered = Self.history.shuffled(using: &generator)
        for _ in 0..<Int.random(in: 1...10, using: &generator) {
            delivered.insert(Self.history.randomElement(using: &generator)!, at: Int.random(in: 0...delivered.count, using: &generator))
        }
        let shuffled = Self.fold(delivered)
        #expect(shuffled == inOrder)
        for day in stride(from: 0.0, through: 380, by: 7.5) {
            #expect(SubscriptionLifecycle.status(of: shuffled, at: Self.day(day)) == SubscriptionLifecycle.status(of: inOrder, at: Self.day(day)))
        }
    }

    @Test("a transaction re-signed with another purchase date (which Apple never does; found by FuzzPipeline) folds to the same facts in every order")
    func movedPurchaseDate() {
        // The same transaction signed later with an earlier purchase date, and another of the chain between the two dates.
        var first = Self.apple.subscription("family.monthly", original: "1000", id: "o0", purchase: Self.day(40), expires: Self.day(70))
        first.signedDate = Self.day(20)
        var resigned = Self.apple.subscription("family.monthly", original: "1000", id: "o0", purchase: Self.day(25), expires: Self.day(55))
        resigned.signedDate = Self.day(33)
        let between = Self.apple.subscription("family.monthly", original: "1000", id: "o1", purchase: Self.day(30), expires: Self.day(60))
        let facts: [Fact] = [.transaction(first), .transaction(resigned), .transaction(between)]
        let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
        let folded = orders.map { order in Self.fold(order.map { facts[$0] }) }
        #expect(Set(folded.map { $0.transactions.keys.sorted() }).count == 1, "\(folded.map { $0.transactions.keys.sorted() })")
        #expect(folded.allSatisfy { $0 == folded[0] })
        // The later purchase date stands: the chain's latest purchase never moves back.
        #expect(folded[0].transactions["o0"]?.purchaseDate == Self.day(40))
    }

    /// The facts from recording `first` then `second`, and from the opposite order.
    static func recordedBothWays(_ first: JWSTransactionDecodedPayload, _ second: JWSTransactionDecodedPayload) -> (SubscriptionFacts, SubscriptionFacts) {
        (fold([.transaction(first), .transaction(second)]), fold([.transaction(second), .transaction(first)]))
    }

    @Test("the latest signed version of a transaction wins, whichever arrives first")
    func latestSignedWins() {
        let first = Self.apple.subscription("p", original: "1000", id: "t1", purchase: Self.day(0), expires: Self.day(30), signed: Self.day(0))
        var refunded = first
        refunded.revocationDate = Self.day(3)
        refunded.signedDate = Self.day(3)
        let (a, b) = Self.recordedBothWays(first, refunded)
        #expect(a == b)
        #expect(a.transactions["t1"]?.revocationDate == Self.day(3))
    }

    @Test("two versions signed at the same instant resolve to the same one in either order")
    func tieBreak() {
        let one = Self.apple.subscription("p", original: "1000", id: "t1", purchase: Self.day(0), expires: Self.day(30), signed: Self.day(1))
        var other = one
        other.isUpgraded = true
        let (a, b) = Self.recordedBothWays(one, other)
        #expect(a == b)
    }

    @Test("a version is never newer than itself; of two signed at one instant exactly one is newer")
    func newerIsStrict() {
        let one = Self.apple.subscription("p", original: "1000", id: "t1", purchase: Self.day(0), expires: Self.day(30), signed: Self.day(1))
        var other = one
        other.isUpgraded = true
        #expect(!SubscriptionFacts.isNewer(one, than: one))
        #expect(SubscriptionFacts.isNewer(one, than: other) != SubscriptionFacts.isNewer(other, than: one))
        let info = Self.apple.renewal(original: "1000", product: "p", signed: Self.day(1))
        var changed = info
        changed.autoRenewProductId = "q"
        #expect(!SubscriptionFacts.isNewer(info, than: info))
        #expect(SubscriptionFacts.isNewer(info, than: changed) != SubscriptionFacts.isNewer(changed, than: info))
    }

    @Test("facts of another purchase chain are ignored")
    func otherChain() {
        var facts = SubscriptionFacts(originalTransactionID: "1000")
        facts.record(Self.apple.subscription("p", original: "2000", purchase: Self.day(0), expires: Self.day(30)))
        facts.record(Self.apple.renewal(original: "2000", product: "p", signed: Self.day(0)))
        #expect(facts.transactions.isEmpty)
        #expect(facts.renewalInfo == nil)
    }

    @Test("merging is the same as recording everything into one")
    func merge() {
        let half = Self.history.count / 2
        var left = Self.fold(Array(Self.history[..<half]))
        left.merge(Self.fold(Array(Self.history[half...])))
        #expect(left == Self.fold(Self.history))
    }
}
