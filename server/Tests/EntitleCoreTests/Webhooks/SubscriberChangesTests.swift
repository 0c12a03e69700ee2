import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("SubscriberChanges: what webhooks report between two answers")
struct SubscriberChangesTests {
    typealias STR = ScreenTimeRewardsScenarios
    static func day(_ n: Double) -> Date { STR.day(n) }
    static let monthEnd = ISODuration(months: 1).added(to: day(5))

    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        let before: SubscriberFacts
        let beforeAt: Date
        let after: SubscriberFacts
        let afterAt: Date
        let expected: [WebhookEventType]
        var testDescription: String { label }
    }

    static let cases: [Case] = {
        let trial = STR.subscriber()
        var bought = trial
        bought.record(STR.apple.subscription(STR.individual, original: "2000", purchase: day(10), expires: ISODuration(months: 1).added(to: day(10))))
        bought.record(STR.apple.renewal(original: "2000", product: STR.individual, signed: day(10)))
        let subscribed = STR.subscriber(trial: false, product: STR.individual)
        var renewed = subscribed
        renewed.record(STR.apple.subscription(STR.individual, original: "2000", purchase: monthEnd, expires: ISODuration(months: 1).added(to: monthEnd), reason: .renewal))
        var cancelled = subscribed
        cancelled.record(STR.apple.renewal(original: "2000", product: STR.individual, autoRenew: .off, signed: day(12), expirationIntent: .customerCancelled))
        var refunded = subscribed
        refunded.record(STR.apple.subscription(STR.individual, original: "2000", purchase: day(5), expires: monthEnd, revoked: day(12), revocationReason: .other))
        var downgrading = STR.subscriber(trial: false, product: STR.family)
        downgrading.record(STR.apple.renewal(original: "2000", product: STR.family, autoRenewProduct: STR.individual, signed: day(12)))
        var billing = STR.subscriber(trial: false)
        billing.record(STR.apple.subscription(STR.family, original: "3000", purchase: day(3), expires: day(33)))
        billing.record(STR.apple.renewal(original: "3000", product: STR.family, signed: day(33), billingRetry: true, graceEnds: day(39)))
        var family = STR.subscriber(trial: false)
        family.record(STR.apple.subscription(STR.family, original: "4000", purchase: day(5), expires: monthEnd, ownership: .familyShared))
        return [
            Case(label: "a purchase during the app's trial", before: trial, beforeAt: day(10), after: bought, afterAt: day(10),
                 expected: [.initialPurchase, .appTrialConverted, .entitlementChanged]),
            Case(label: "the same purchase again", before: bought, beforeAt: day(11), after: bought, afterAt: day(11), expected: []),
            Case(label: "a renewal", before: subscribed, beforeAt: day(20), after: renewed, afterAt: day(20), expected: [.renewal, .entitlementChanged]),
            Case(label: "auto-renew turned off", before: subscribed, beforeAt: day(12), after: cancelled, afterAt: day(12),
                 expected: [.autoRenewDisabled, .entitlementChanged]),
            Case(label: "auto-renew turned on again", before: cancelled, beforeAt: day(13), after: subscribed, afterAt: day(13),
                 expected: [.autoRenewEnabled, .entitlementChanged]),
            Case(label: "a refund", before: subscribed, beforeAt: day(12), after: refunded, afterAt: day(12), expected: [.refund, .entitlementChanged]),
            Case(label: "a downgrade at the next renewal", before: STR.subscriber(trial: false, product: STR.family), beforeAt: day(12), after: downgrading,
                 afterAt: day(12), expected: [.productChange, .entitlementChanged]),
            Case(label: "a cancelled subscription's period ends", before: cancelled, beforeAt: day(20), after: cancelled, afterAt: monthEnd.addingTimeInterval(1),
                 expected: [.expiration, .entitlementChanged]),
            Case(label: "a renewal fails into the billing grace period", before: billing, beforeAt: day(20), after: billing, afterAt: day(34),
                 expected: [.billingIssue, .gracePeriodStarted, .entitlementChanged]),
            Case(label: "the grace period ends in billing retry", before: billing, beforeAt: day(34), after: billing, afterAt: day(40),
                 expected: [.gracePeriodEnded, .entitlementChanged]),
            Case(label: "the app's trial ends into its warning period", before: trial, beforeAt: day(10), after: trial, afterAt: day(31),
                 expected: [.appTrialWarning, .entitlementChanged]),
            Case(label: "the app's warning period ends in lockout", before: trial, beforeAt: day(31), after: trial, afterAt: day(38),
                 expected: [.appTrialLockout, .entitlementChanged]),
            Case(label: "a purchase shared by a family member", before: STR.subscriber(trial: false), beforeAt: day(6), after: family, afterAt: day(6),
                 expected: [.familySharing, .entitlementChanged]),
            Case(label: "nothing happened", before: subscribed, beforeAt: day(12), after: subscribed, afterAt: day(13), expected: []),
        ]
    }()

    @Test("each change is reported by its type, once, with entitlement_changed last when the entitlements differ", arguments: cases)
    func reports(_ change: Case) {
        let before = STR.access(change.before, at: change.beforeAt)
        let after = STR.access(change.after, at: change.afterAt)
        #expect(SubscriberChanges.between(before, after).map(\.type) == change.expected)
    }

    @Test("a transfer is reported on both sides: the purchase gone from one subscriber, new to the other")
    func transfer() {
        let subscribed = STR.subscriber(trial: false, product: STR.individual)
        let nothing = STR.subscriber(trial: false)
        let gone = SubscriberChanges.between(STR.access(subscribed, at: Self.day(12)), STR.access(nothing, at: Self.day(12)))
        #expect(gone.map(\.type) == [.transfer, .entitlementChanged])
        #expect(gone.first?.originalTransactionID == "2000")
        let gained = SubscriberChanges.between(STR.access(nothing, at: Self.day(12)), STR.access(subscribed, at: Self.day(12)), transferred: ["2000"])
        #expect(gained.map(\.type) == [.transfer, .entitlementChanged])
        #expect(SubscriberChanges.between(STR.access(nothing, at: Self.day(12)), STR.access(subscribed, at: Self.day(12))).first?.type == .initialPurchase)
    }

    @Test("a product change names the product before and after")
    func productChangeNamesBoth() throws {
        let family = STR.subscriber(trial: false, product: STR.family)
        var downgrading = family
        downgrading.record(STR.apple.renewal(original: "2000", product: STR.family, autoRenewProduct: STR.individual, signed: Self.day(12)))
        let change = try #require(SubscriberChanges.between(STR.access(family, at: Self.day(12)), STR.access(downgrading, at: Self.day(12))).first)
        #expect(change.productID?.rawValue == STR.individual)
        #expect(change.previousProductID?.rawValue == STR.family)
    }

    @Test("quota_exhausted when a use takes the last of the free tier's monthly allowance, not when the window turns over")
    func quotaExhausted() {
        let catalog = Fixtures.exampleCatalog("Epilogue")
        let resolver = EntitlementResolver(catalog: catalog)
        var one = SubscriberFacts(appUserID: "reader")
        one.usage = [UsageRecord(feature: "conversations", at: Self.day(3), idempotencyKey: "a")]
        var two = one
        two.usage.append(UsageRecord(feature: "conversations", at: Self.day(4), idempotencyKey: "b"))
        let exhausted = SubscriberChanges.between(resolver.resolve(one, at: Self.day(4)), resolver.resolve(two, at: Self.day(4)))
        #expect(exhausted.map(\.type) == [.quotaExhausted])
        #expect(exhausted.first?.feature == "conversations")
        let nextMonth = ISODuration(months: 1).added(to: Self.day(4))
        #expect(SubscriberChanges.between(resolver.resolve(two, at: Self.day(5)), resolver.resolve(two, at: nextMonth)).isEmpty)
    }

    @Test("a renewal reminder is due 7 days before a renewing period ends, once per period; none when auto-renew is off")
    func renewalReminders() throws {
        let subscribed = STR.subscriber(trial: false, product: STR.individual)
        let reminder = try #require(Reminder.reminders(STR.access(subscribed, at: Self.day(10))).first { $0.kind == .renewal })
        #expect(reminder.dueAt == Self.monthEnd.addingTimeInterval(-7 * 86_400))
        #expect(reminder.endsAt == Self.monthEnd)
        #expect(reminder.periodKey.hasPrefix("2000:"))
        let cancelled = STR.subscriber(trial: false, product: STR.individual, autoRenew: .off)
        #expect(!Reminder.reminders(STR.access(cancelled, at: Self.day(10))).contains { $0.kind == .renewal })
    }
}

extension SubscriberChangesTests {
    @Test("a subscription billed monthly under a 12-month commitment is reminded of once, before the commitment ends, not before each instalment")
    func commitmentReminder() throws {
        var facts = STR.subscriber(trial: false)
        let commitmentEnd = ISODuration(years: 1).added(to: Self.day(5))
        var instalment = STR.apple.subscription(STR.family, original: "2000", purchase: Self.day(5), expires: Self.monthEnd, price: 1_090)
        instalment.billingPlanType = .monthly
        instalment.commitmentInfo = TransactionCommitmentInfo(
            billingPeriodNumber: 1, commitmentExpiresDate: commitmentEnd, commitmentPrice: 13_080, totalBillingPeriods: 12)
        facts.record(instalment)
        facts.record(STR.apple.renewal(original: "2000", product: STR.family, signed: Self.day(5)))
        let reminder = try #require(Reminder.reminders(STR.access(facts, at: Self.day(10))).first { $0.kind == .renewal })
        #expect(reminder.endsAt == commitmentEnd)
        #expect(reminder.dueAt == commitmentEnd.addingTimeInterval(-7 * 86_400))
    }
}

extension SubscriberChangesTests {
    @Test("a downgrade that takes effect pauses the newest devices beyond the new limit (item_paused), an upgrade resumes them (item_resumed)")
    func itemsPausedAndResumed() throws {
        var family = STR.subscriber(trial: false, product: STR.family)
        for (id, day) in [("ipad-1", 6.0), ("ipad-2", 7), ("ipad-3", 8)] {
            family.recordItemChange(ItemChange(limit: "childDevices", itemID: id, action: .register, at: Self.day(day)))
        }
        var individual = family
        individual.record(STR.apple.subscription(STR.individual, original: "2000", purchase: Self.monthEnd, expires: ISODuration(months: 1).added(to: Self.monthEnd), reason: .renewal))
        let before = STR.access(family, at: Self.day(10))
        let after = STR.access(individual, at: Self.monthEnd.addingTimeInterval(60))
        let paused = SubscriberChanges.between(before, after).filter { $0.type == .itemPaused }
        #expect(paused.map(\.itemID) == ["ipad-2", "ipad-3"] && paused.allSatisfy { $0.feature == "childDevices" })
        let resumed = SubscriberChanges.between(after, before).filter { $0.type == .itemResumed }
        #expect(resumed.map(\.itemID) == ["ipad-2", "ipad-3"])
        // Each device's event is its own.
        #expect(Set(paused.map(\.subject)).count == 2)
    }
}
