import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("EntitlementResolver: the next change by time alone")
struct AccessChangeTests {
    typealias STR = ScreenTimeRewardsScenarios
    static func day(_ n: Double) -> Date { ReferenceTime.day(n) }

    /// Subscribers whose answers change several times with no new event.
    static let scenarios: [(String, SubscriberFacts)] = {
        var billing = STR.subscriber(trial: false)
        let start = day(3)
        billing.record(STR.apple.subscription(STR.family, original: "3000", purchase: start, expires: day(33)))
        billing.record(STR.apple.renewal(
            original: "3000", product: STR.family, signed: day(33), billingRetry: true, graceEnds: day(39)))
        var granted = STR.subscriber(trial: false)
        granted.apply(LedgerEvents.admin(1, appUserID: "parent-1", at: day(2), .grant(EntitlementGrant(
            id: "g1", entitlementID: "family", startsAt: day(4), endsAt: day(9)))))
        granted.apply(LedgerEvents.admin(2, appUserID: "parent-1", at: day(2), .override(AccessOverride(
            id: "o1", startsAt: day(2), endsAt: day(6)))))
        return [
            ("an app-managed trial that runs out, warns, then locks out", STR.subscriber()),
            ("a trial converted to a cancelled Individual subscription", STR.subscriber(product: STR.individual, subscribedOn: 12, autoRenew: .off)),
            ("a Family subscription in billing grace, then retry", billing),
            ("a grant and an override that end", granted),
            ("nothing at all", STR.subscriber(trial: false)),
        ]
    }()

    @Test("between now and the next change the answer is the same at every instant; at the change it differs", arguments: scenarios.indices)
    func agreesWithResolverEverywhere(index: Int) {
        let (label, facts) = Self.scenarios[index]
        let resolver = STR.resolver
        var generator = SeededGenerator(seed: UInt64(index + 1))
        var now = Self.day(0)
        let end = Self.day(120)
        var changes = 0
        while now < end {
            let current = resolver.resolve(facts, at: now)
            let change = resolver.nextChange(of: facts, after: now)
            let until = min(change?.at ?? end, end)
            for _ in 0..<60 {
                let instant = Date(timeIntervalSince1970: Double.random(
                    in: now.timeIntervalSince1970..<until.timeIntervalSince1970, using: &generator))
                var sampled = resolver.resolve(facts, at: instant)
                sampled.evaluatedAt = current.evaluatedAt
                #expect(sampled == current, "\(label): the answer changed at \(instant), before the predicted \(String(describing: change?.at))")
            }
            guard let change, change.at < end else { break }
            var after = resolver.resolve(facts, at: change.at)
            #expect(after == change.after, "\(label): the change reports the resolver's answer at \(change.at)")
            after.evaluatedAt = current.evaluatedAt
            #expect(after != current, "\(label): nothing changed at the predicted \(change.at)")
            changes += 1
            now = change.at
        }
        if label == "nothing at all" {
            #expect(changes == 0)
        } else {
            #expect(changes >= 1, "\(label): some change is expected")
        }
    }

    @Test("TC1: the trial's end, then lockout, are the next changes, with the trial phase and entitlement states they bring")
    func trialChanges() throws {
        let facts = STR.subscriber()
        let first = try #require(STR.resolver.nextChange(of: facts, after: Self.day(1)))
        #expect(first.at == Self.day(30))
        #expect(first.appTrialChanges)
        #expect(first.entitlementChanges.contains { $0.id == "individual" && $0.to == .appGrace })
        let second = try #require(STR.resolver.nextChange(of: facts, after: first.at))
        #expect(second.at == Self.day(37))
        #expect(second.after.isLockedOut)
        #expect(second.entitlementChanges.contains { $0.id == "family" && $0.to == .lockout })
    }
}
