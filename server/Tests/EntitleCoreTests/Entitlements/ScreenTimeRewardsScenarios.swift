import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

/// Subscribers of the ScreenTimeRewards example (seed 004) in each state of its matrices, at the
/// instant the state holds. Day 0 is the first launch.
enum ScreenTimeRewardsScenarios {
    static let catalog = Fixtures.exampleCatalog("ScreenTimeRewards")
    static let resolver = EntitlementResolver(catalog: catalog)
    static let apple = AppleFacts(bundleID: "com.screentimerewards")
    static let individual = "com.screentimerewards.individual.monthly"
    static let family = "com.screentimerewards.family.monthly"
    static func day(_ n: Double) -> Date { ReferenceTime.day(n) }

    /// A subscriber who launched on day 0 and, optionally, subscribed to `product` on `subscribedOn`
    /// for one month with auto-renew as given.
    static func subscriber(trial: Bool = true, product: String? = nil, subscribedOn: Double = 5, autoRenew: AutoRenewStatus = .on) -> SubscriberFacts {
        var facts = SubscriberFacts(appUserID: "parent-1")
        if trial { facts.recordFirstLaunch(at: day(0)) }
        if let product {
            let start = day(subscribedOn)
            facts.record(apple.subscription(product, original: "2000", purchase: start, expires: ISODuration(months: 1).added(to: start), price: product == family ? 12990 : 7990))
            facts.record(apple.renewal(original: "2000", product: product, autoRenew: autoRenew, signed: start.addingTimeInterval(autoRenew == .off ? 86_400 : 0),
                                       expirationIntent: autoRenew == .off ? .customerCancelled : nil))
        }
        return facts
    }

    /// The states of the seed's matrices, each as the subscribers that are in it (the expired states
    /// are reached two ways: after the app's trial, and after a paid subscription).
    enum Column: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case freeTrial = "Free Trial"
        case expiredGrace = "Expired (Grace)"
        case expiredLockout = "Expired (Lockout)"
        case individual = "Individual"
        case family = "Family"

        var testDescription: String { rawValue }

        var subscribers: [(label: String, facts: SubscriberFacts, at: Date)] {
            switch self {
            case .freeTrial: [("day 10 of the trial", subscriber(), day(10))]
            case .expiredGrace: [
                ("day 32, after the trial", subscriber(), day(32)),
                ("two days after a cancelled subscription ended", subscriber(trial: false, product: ScreenTimeRewardsScenarios.individual, subscribedOn: 0, autoRenew: .off), day(33)),
            ]
            case .expiredLockout: [
                ("day 40, after the trial", subscriber(), day(40)),
                ("nine days after a cancelled subscription ended", subscriber(trial: false, product: ScreenTimeRewardsScenarios.individual, subscribedOn: 0, autoRenew: .off), day(40)),
            ]
            case .individual: [("subscribed on day 5", subscriber(product: ScreenTimeRewardsScenarios.individual), day(10))]
            case .family: [("subscribed on day 5", subscriber(product: ScreenTimeRewardsScenarios.family), day(10))]
            }
        }
    }

    static func access(_ facts: SubscriberFacts, at: Date) -> SubscriberAccess {
        resolver.resolve(facts, at: at)
    }
}
