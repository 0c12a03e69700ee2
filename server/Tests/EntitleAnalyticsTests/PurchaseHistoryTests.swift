import AppStoreModels
import EntitleAnalytics
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("PurchaseHistory")
struct PurchaseHistoryTests {
    @Test("chronological: by purchase date (none first), then transaction id; each transaction's latest signed version", arguments: 0..<5)
    func chronological(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let apple = AppleFacts(environment: .production)
        let dates: [Date?] = [nil, ReferenceTime.start, ReferenceTime.day(31), ReferenceTime.day(62)]
        var transactions = (0..<30).map { n -> JWSTransactionDecodedPayload in
            var transaction = apple.subscription("p", original: "o", id: "t\(n * 7 % 30)", purchase: ReferenceTime.start, expires: ReferenceTime.day(90))
            transaction.purchaseDate = dates.randomElement(using: &generator)!
            return transaction
        }
        // A later signed version of one of them, with another purchase date: that one counts.
        var newer = transactions[3]
        newer.signedDate = (newer.signedDate ?? ReferenceTime.start).addingTimeInterval(60)
        newer.purchaseDate = ReferenceTime.day(100)
        transactions.append(newer)

        var history = PurchaseHistory(originalTransactionID: "o")
        for transaction in transactions.shuffled(using: &generator) { history.record(transaction) }
        let latest = transactions.filter { $0.transactionId != newer.transactionId } + [newer]
        let expected = latest.sorted { (l: JWSTransactionDecodedPayload, r: JWSTransactionDecodedPayload) -> Bool in
            let (left, right) = (l.purchaseDate ?? Date.distantPast, r.purchaseDate ?? Date.distantPast)
            return left != right ? left < right : l.transactionId! < r.transactionId!
        }
        #expect(history.chronological.map(\.transactionId) == expected.map(\.transactionId))
        #expect(history.chronological.last?.purchaseDate == ReferenceTime.day(100))
    }
}
