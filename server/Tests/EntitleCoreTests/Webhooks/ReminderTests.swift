import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

/// The reminders time alone brings (seeds 002 and 004): renewals, expiry warnings, StoreKit trials ending,
/// and each day of the app-managed trial's grace.
@Suite("Reminder")
struct ReminderTests {
    typealias STR = ScreenTimeRewardsScenarios
    static func day(_ n: Double) -> Date { STR.day(n) }
    static let monthEnd = ISODuration(months: 1).added(to: day(5))

    @Test("a subscription that won't renew: one warning a week before it ends, none while it renews")
    func expiryWarning() throws {
        let cancelled = STR.subscriber(trial: false, product: STR.individual, autoRenew: .off)
        let warnings = Reminder.reminders(STR.access(cancelled, at: Self.day(10))).filter { $0.kind == .expiryWarning }
        #expect(warnings.count == 1)
        #expect(warnings.first?.endsAt == Self.monthEnd && warnings.first?.dueAt == Self.monthEnd.addingTimeInterval(-7 * 86_400))
        #expect(warnings.first?.originalTransactionID == "2000" && warnings.first?.productID == ProductID(STR.individual))
        let renewing = STR.subscriber(trial: false, product: STR.individual)
        #expect(!Reminder.reminders(STR.access(renewing, at: Self.day(10))).contains { $0.kind == .expiryWarning })
        // Once it ended there is nothing to warn about: only the warning days before lockout remain.
        #expect(Reminder.reminders(STR.access(cancelled, at: Self.monthEnd.addingTimeInterval(60))).allSatisfy { $0.kind == .subscriptionGrace })
    }

    @Test("seed 004's warning days after a paid subscription ended: a reminder each day after the first until lockout, none once renewed")
    func subscriptionGrace() throws {
        let cancelled = STR.subscriber(trial: false, product: STR.individual, autoRenew: .off)
        // Nothing planned while the subscription runs: the warning days begin only if it ends.
        #expect(!Reminder.reminders(STR.access(cancelled, at: Self.day(10))).contains { $0.kind == .subscriptionGrace })
        let during = Reminder.reminders(STR.access(cancelled, at: Self.monthEnd.addingTimeInterval(3_600))).filter { $0.kind == .subscriptionGrace }
        #expect(during.map(\.dueAt) == (1...6).map { Self.monthEnd.addingTimeInterval(Double($0) * 86_400) })
        #expect(during.allSatisfy { $0.endsAt == Self.monthEnd.addingTimeInterval(7 * 86_400) })
        #expect(Set(during.map(\.periodKey)).count == 6)
        // The same list later in the warning days, so each still fires when due; none after lockout.
        #expect(Reminder.reminders(STR.access(cancelled, at: Self.monthEnd.addingTimeInterval(4 * 86_400))).filter { $0.kind == .subscriptionGrace } == during)
        #expect(Reminder.reminders(STR.access(cancelled, at: Self.monthEnd.addingTimeInterval(8 * 86_400))).isEmpty)
    }

    @Test("the app-managed trial's end: one warning 3 days before, none once bought or when the trial is shorter than that")
    func appTrialEnding() throws {
        let trial = STR.subscriber()
        let ending = Reminder.reminders(STR.access(trial, at: Self.day(10))).filter { $0.kind == .appTrialEnding }
        #expect(ending.map(\.dueAt) == [Self.day(27)])
        #expect(ending.first?.endsAt == Self.day(30))
        #expect(DaysLeft.until(Self.day(30), from: Self.day(27)) == 3)
        let bought = STR.subscriber(product: STR.individual, subscribedOn: 20)
        #expect(!Reminder.reminders(STR.access(bought, at: Self.day(21))).contains { $0.kind == .appTrialEnding })
        // Support's extension moves it, and the grace days after it; the same extension folded twice counts once.
        var extended = trial
        let extension_ = AppTrialExtension(id: "x1", days: 10, at: Self.day(12))
        extended.apply(LedgerEvent(
            id: UUID(), appUserID: "parent-1", source: .admin, idempotencyKey: "x1", signedDate: Self.day(12), receivedAt: Self.day(12),
            payload: .appTrialExtended(extension_)))
        extended.apply(LedgerEvent(
            id: UUID(), appUserID: "parent-1", source: .admin, idempotencyKey: "x1", signedDate: Self.day(12), receivedAt: Self.day(12),
            payload: .appTrialExtended(extension_)))
        #expect(extended.appTrialExtraDays == 10)
        let later = Reminder.reminders(STR.access(extended, at: Self.day(13)))
        #expect(later.filter { $0.kind == .appTrialEnding }.map(\.dueAt) == [Self.day(37)])
        #expect(later.filter { $0.kind == .appTrialGrace }.map(\.dueAt) == (41...46).map { Self.day(Double($0)) })
    }

    @Test("a StoreKit free trial: reminded 2 days before it ends, saying whether it converts", arguments: [AutoRenewStatus.on, .off])
    func trialEnding(autoRenew: AutoRenewStatus) throws {
        var facts = SubscriberFacts(appUserID: "parent-1")
        let trialEnd = Self.day(12)
        facts.record(STR.apple.subscription(STR.family, original: "3000", purchase: Self.day(5), expires: trialEnd, offer: .introductoryOffer, discount: .freeTrial))
        facts.record(STR.apple.renewal(original: "3000", product: STR.family, autoRenew: autoRenew, signed: Self.day(6)))
        let reminders = Reminder.reminders(STR.access(facts, at: Self.day(6)))
        let ending = try #require(reminders.first { $0.kind == .trialEnding })
        #expect(ending.endsAt == trialEnd && ending.dueAt == trialEnd.addingTimeInterval(-2 * 86_400) && ending.willRenew == (autoRenew == .on))
        // A converting trial is also a renewal (reminded 7 days before: none in a 7-day trial).
        #expect(!reminders.contains { $0.kind == .renewal })
        #expect(reminders.contains { $0.kind == .expiryWarning } == false)
    }

    @Test("the app-managed trial's grace: a reminder each day after its first until lockout, none once bought")
    func appTrialGrace() throws {
        let trial = STR.subscriber()
        // Seed 004: 30 days of trial from day 0, then 7 days of grace, lockout on day 37.
        let planned = Reminder.reminders(STR.access(trial, at: Self.day(10))).filter { $0.kind == .appTrialGrace }
        #expect(planned.map(\.dueAt) == (31...36).map { Self.day(Double($0)) })
        #expect(planned.allSatisfy { $0.endsAt == Self.day(37) })
        #expect(Set(planned.map(\.periodKey)).count == 6)
        // The same list during the grace, so each one still fires when it comes due.
        #expect(Reminder.reminders(STR.access(trial, at: Self.day(33))).filter { $0.kind == .appTrialGrace } == planned)
        let bought = STR.subscriber(product: STR.individual, subscribedOn: 32)
        #expect(!Reminder.reminders(STR.access(bought, at: Self.day(33))).contains { $0.kind == .appTrialGrace })
    }

    @Test("a non-renewing subscription: warned a week before it ends")
    func nonRenewing() throws {
        let catalog = Fixtures.exampleCatalog("ScreenTimeRewards")
        var facts = SubscriberFacts(appUserID: "parent-1")
        let pass = STR.apple.purchase("com.example.pass", id: "4000", at: Self.day(5), type: .nonRenewing)
        var dated = pass
        dated.expiresDate = Self.day(35)
        facts.record(dated)
        let access = EntitlementResolver(catalog: catalog).resolve(facts, at: Self.day(6))
        let warning = try #require(Reminder.reminders(access).first { $0.kind == .expiryWarning })
        #expect(warning.endsAt == Self.day(35) && warning.dueAt == Self.day(28))
    }
}
