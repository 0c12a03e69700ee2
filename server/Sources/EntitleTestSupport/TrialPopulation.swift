import AppStoreModels
import EntitleCore
import Foundation

/// A healthy ScreenTimeRewards with trials still running, as its subscribers' events: seed 000's
/// 14-day introductory trial and seed 004's 30-day app-managed trial (+ 7 days of grace). Judging
/// trials by when they started rather than when they ended reads it as failing (the business checks'
/// tests).
///
/// - 10 introductory trials began 25 days before `now` and ended 11 days before: 5 converted (50%).
/// - 60 introductory trials began 10 days before and run for 4 more days: none has converted yet.
/// - 20 app-managed trials began 45 days before (grace ended 8 days before): `appConverted` of them
///   bought on the trial's 20th day.
/// - 50 app-managed trials began 20 days before and are running.
public enum TrialPopulation {
    public static func subscribers(now: Date, appConverted: Int) -> [(AppUserID, [LedgerEvent])] {
        let apple = AppleFacts(bundleID: "com.screentimerewards.app", environment: .production)
        func daysAgo(_ days: Double) -> Date { now.addingTimeInterval(-days * 86_400) }
        var subscribers: [(AppUserID, [LedgerEvent])] = []
        var seed = 70_000
        func introTrial(_ user: String, began: Double, converts: Bool) {
            let start = daysAgo(began), end = start.addingTimeInterval(14 * 86_400)
            let trial = apple.subscription(
                AnalyticsLedger.individual, original: user, id: "\(user)-1", purchase: start, expires: end,
                offer: .introductoryOffer, discount: .freeTrial, groupID: "20776E67")
            var events = [LedgerEvents.appTransaction(seed, appUserID: AppUserID(user), trial)]
            if converts {
                let paid = apple.subscription(
                    AnalyticsLedger.individual, original: user, id: "\(user)-2", purchase: end, expires: end.addingTimeInterval(30 * 86_400),
                    originalPurchase: start, reason: .renewal, groupID: "20776E67")
                events.append(LedgerEvents.notification(seed + 1, appUserID: AppUserID(user), type: .didRenew, subtype: nil, transaction: paid))
            }
            seed += 2
            subscribers.append((AppUserID(user), events))
        }
        func appTrial(_ user: String, began: Double, buysOnDay: Double?) {
            let start = daysAgo(began)
            var events = [LedgerEvent(
                id: LedgerEvents.id(seed), appUserID: AppUserID(user), source: .appTrialStart, idempotencyKey: "trial:\(user)",
                signedDate: start, receivedAt: start, payload: .appTrialStarted(at: start))]
            if let buysOnDay {
                let bought = start.addingTimeInterval(buysOnDay * 86_400)
                events.append(LedgerEvents.appTransaction(seed + 1, appUserID: AppUserID(user), apple.subscription(
                    AnalyticsLedger.individual, original: user, id: "\(user)-1", purchase: bought, expires: bought.addingTimeInterval(30 * 86_400),
                    groupID: "20776E67")))
            }
            seed += 2
            subscribers.append((AppUserID(user), events))
        }
        for index in 0..<10 { introTrial("ended-\(index)", began: 25, converts: index < 5) }
        for index in 0..<60 { introTrial("running-\(index)", began: 10, converts: false) }
        for index in 0..<20 { appTrial("app-ended-\(index)", began: 45, buysOnDay: index < appConverted ? 20 : nil) }
        for index in 0..<50 { appTrial("app-running-\(index)", began: 20, buysOnDay: nil) }
        return subscribers
    }
}
