import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("AppTrialPolicy")
struct AppTrialPolicyTests {
    static let policy = Fixtures.exampleCatalog("ScreenTimeRewards").appTrial!
    static func day(_ n: Double) -> Date { ReferenceTime.day(n) }

    @Test("seed 004 TC1: 30 days of trial from first launch, grace from day 31, lockout from day 38", arguments: [
        (1.0, "active"), (15, "active"), (29.99, "active"), (30, "grace"), (31, "grace"), (36.99, "grace"), (37, "lockout"), (38, "lockout"), (400, "lockout"),
    ])
    func phases(elapsedDays: Double, phase: String) {
        // Day 1 is the launch day, so day N is N-1 days after the launch.
        #expect(Self.policy.phase(startedAt: ReferenceTime.start, purchasedAt: nil, at: Self.day(elapsedDays)).name == phase)
    }

    @Test("the trial's end and the lockout instant are reported")
    func instants() {
        #expect(Self.policy.phase(startedAt: ReferenceTime.start, purchasedAt: nil, at: Self.day(10)) == .active(endsAt: Self.day(30)))
        #expect(Self.policy.phase(startedAt: ReferenceTime.start, purchasedAt: nil, at: Self.day(31)) == .grace(trialEndedAt: Self.day(30), lockoutAt: Self.day(37)))
        #expect(Self.policy.phase(startedAt: ReferenceTime.start, purchasedAt: nil, at: Self.day(40)) == .lockout(since: Self.day(37)))
    }

    @Test("a store purchase supersedes the trial at any point, even after lockout", arguments: [5.0, 33, 60])
    func purchaseSupersedes(purchaseDay: Double) {
        let phase = Self.policy.phase(startedAt: ReferenceTime.start, purchasedAt: Self.day(purchaseDay), at: Self.day(purchaseDay + 1))
        #expect(phase == .superseded(at: Self.day(purchaseDay)))
    }

    @Test("without a first launch, or before it, there is no trial")
    func notStarted() {
        #expect(Self.policy.phase(startedAt: nil, purchasedAt: nil, at: Self.day(1)) == .notStarted)
        #expect(Self.policy.phase(startedAt: Self.day(5), purchasedAt: nil, at: Self.day(1)) == .notStarted)
    }

    @Test("a policy without grace locks out when the trial ends")
    func noGrace() {
        let policy = AppTrialPolicy(length: ISODuration(days: 7), entitlementIDs: ["pro"])
        #expect(policy.phase(startedAt: ReferenceTime.start, purchasedAt: nil, at: Self.day(7)) == .lockout(since: Self.day(7)))
    }
}
