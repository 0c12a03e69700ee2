import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation

/// A ScreenTimeRewards population for 2025, the same for every benchmark that needs a large ledger:
/// every subscriber starts an app-managed trial at first launch; three in four buy an individual or
/// family monthly plan, half of them through a 7-day introductory trial; renewals for 1 to 12 months,
/// then a cancellation; 1% of periods refunded. Subscriber `n` is `user-n` with purchase `An`.
public enum Population {
    public static let product = ["com.screentimerewards.individual.monthly", "com.screentimerewards.family.monthly"]
    public static let start = ReferenceTime.instant("2025-01-01T00:00:00Z")

    /// Subscribers' events, in order, until there are at least `events` events (seed 42).
    public static func people(events target: Int) -> [[LedgerEvent]] {
        var generator = SeededGenerator(seed: 42)
        var people: [[LedgerEvent]] = []
        var total = 0
        while total < target {
            let events = person(people.count, &generator)
            total += events.count
            people.append(events)
        }
        return people
    }

    /// One subscriber's year: first launch, and for most a purchase (often through an introductory
    /// trial) renewing monthly until they cancel; a few refunds.
    public static func person(_ index: Int, _ generator: inout SeededGenerator) -> [LedgerEvent] {
        let apple = AppleFacts(bundleID: "com.screentimerewards")
        let user = AppUserID("user-\(index)")
        var seed = index * 64
        func next() -> Int { seed += 1; return seed }
        let launched = start.addingTimeInterval(Double.random(in: 0..<(330 * 86_400), using: &generator))
        var events = [LedgerEvent(
            id: LedgerEvents.id(next()), appUserID: user, source: .appTrialStart, idempotencyKey: "trial:\(user)", signedDate: launched,
            receivedAt: launched, payload: .appTrialStarted(at: launched))]
        guard Double.random(in: 0..<1, using: &generator) < 0.75 else { return events }
        let family = Bool.random(using: &generator)
        let productID = product[family ? 1 : 0]
        let price: Int64 = family ? 12_990 : 7_990
        let original = "A\(index)"
        var purchase = launched.addingTimeInterval(Double.random(in: 0..<(20 * 86_400), using: &generator))
        if Bool.random(using: &generator) {
            let trialEnd = purchase.addingTimeInterval(7 * 86_400)
            let trial = apple.subscription(
                productID, original: original, id: "\(original)-t", purchase: purchase, expires: trialEnd, offer: .introductoryOffer, discount: .freeTrial)
            events.append(LedgerEvents.appTransaction(next(), appUserID: user, trial))
            events.append(LedgerEvents.notification(next(), appUserID: user, type: .subscribed, subtype: .initialBuy, transaction: trial,
                                                    renewalInfo: apple.renewal(original: original, product: productID, signed: purchase)))
            purchase = trialEnd
            guard Double.random(in: 0..<1, using: &generator) < 0.6 else {
                events.append(LedgerEvents.notification(next(), appUserID: user, type: .expired, subtype: .voluntary, transaction: trial))
                return events
            }
        }
        let months = Int.random(in: 1...12, using: &generator)
        for period in 0..<months {
            let expires = ISODuration(months: 1).added(to: purchase)
            let transaction = apple.subscription(
                productID, original: original, id: "\(original)-\(period)", purchase: purchase, expires: expires, price: price,
                reason: period == 0 ? .purchase : .renewal)
            let info = apple.renewal(original: original, product: productID, signed: purchase)
            if period == 0 {
                events.append(LedgerEvents.appTransaction(next(), appUserID: user, transaction))
                events.append(LedgerEvents.notification(next(), appUserID: user, type: .subscribed, subtype: .initialBuy, transaction: transaction, renewalInfo: info))
            } else {
                events.append(LedgerEvents.notification(next(), appUserID: user, type: .didRenew, transaction: transaction, renewalInfo: info))
            }
            if Double.random(in: 0..<1, using: &generator) < 0.01 {
                var refunded = transaction
                refunded.revocationDate = purchase.addingTimeInterval(3 * 86_400)
                refunded.revocationReason = .other
                refunded.signedDate = refunded.revocationDate
                events.append(LedgerEvents.notification(next(), appUserID: user, type: .refund, transaction: refunded))
                return events
            }
            purchase = expires
            if purchase > start.addingTimeInterval(365 * 86_400) { return events }
        }
        events.append(LedgerEvents.notification(next(), appUserID: user, type: .didChangeRenewalStatus, subtype: .autoRenewDisabled,
                                                transaction: nil, renewalInfo: apple.renewal(original: original, product: productID, autoRenew: .off, signed: purchase.addingTimeInterval(-86_400))))
        return events
    }
}
