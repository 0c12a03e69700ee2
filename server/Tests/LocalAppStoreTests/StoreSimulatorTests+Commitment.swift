import AppStoreModels
import AppStoreVerification
import EntitleCore
import EntitleTestSupport
import Foundation
import LocalAppStore
import Testing

extension StoreSimulatorTests {
    @Test("a yearly plan billed monthly under a 12-month commitment: 12 signed instalments, auto-renew off ends it only at the commitment's end")
    func commitment() async throws {
        var store = try Self.store("PantryPal", bundleID: "com.pantrypal.app")
        let verifier = try Self.verifier("com.pantrypal.app")
        let annual = "com.pantrypal.premium.annual"
        let bought = try store.purchase(annual, at: Self.day(0), billingPlan: .monthly)
        let original = bought.originalTransactionID
        let first = try await verifier.verifyTransaction(bought.signedTransaction)
        let commitmentEnd = ISODuration(years: 1).added(to: Self.day(0))
        // 49.99 ÷ 12 = 4.1658…, rounded up to the cent: 4.17 a month, 50.04 in all.
        #expect(first.billingPlanType == .monthly && first.price == 4_170)
        #expect(first.commitmentInfo == TransactionCommitmentInfo(
            billingPeriodNumber: 1, commitmentExpiresDate: commitmentEnd, commitmentPrice: 50_040, totalBillingPeriods: 12))
        #expect(first.expiresDate == ISODuration(months: 1).added(to: Self.day(0)))

        // Auto-renew off in the third month: the instalments go on; the renewal info says so.
        _ = try store.renew(original)
        _ = try store.renew(original)
        let cancelled = try store.setAutoRenew(original, false, at: Self.day(70))
        let info = try #require(try await verifier.verifyNotification(cancelled[0].signedPayload).renewalInfo)
        #expect(info.autoRenewStatus == .on && info.commitmentInfo?.commitmentAutoRenewStatus == .off)
        #expect(info.commitmentInfo?.commitmentRenewalDate == commitmentEnd && info.renewalPrice == 4_170)
        #expect(throws: LocalStoreError.self) { try store.expire(original, reason: .voluntary) }
        for _ in 4...12 { _ = try store.renew(original) }
        let last = try #require(store.subscription(original))
        #expect(last.commitment?.billingPeriod == 12 && last.expiresDate == commitmentEnd && !last.renewsNext)
        #expect(last.expectedState(at: Self.day(300)) == "active_not_renewing")
        let lastTransaction = try await verifier.verifyTransaction(try store.currentTransaction(original, at: Self.day(340)))
        #expect(lastTransaction.commitmentInfo?.billingPeriodNumber == 12 && lastTransaction.expiresDate == commitmentEnd)
        // Now, and only now, it can end.
        let expired = try store.expire(original, reason: .voluntary)
        #expect(try await verifier.verifyNotification(expired[0].signedPayload).notification.notificationType == .expired)
        // Entitle's lifecycle reads the same from what the store signed.
        var facts = SubscriptionFacts(originalTransactionID: OriginalTransactionID(original))
        facts.record(lastTransaction)
        facts.record(info)
        #expect(SubscriptionLifecycle.status(of: facts, at: Self.day(340))?.state == .activeNotRenewing)
        #expect(SubscriptionLifecycle.status(of: facts, at: Self.day(340))?.termEndsAt == commitmentEnd)
    }

    @Test("only a yearly subscription can be billed monthly with a commitment")
    func commitmentNeedsYearly() throws {
        var store = try Self.store("PantryPal", bundleID: "com.pantrypal.app")
        #expect(throws: LocalStoreError.self) { try store.purchase("com.pantrypal.premium.monthly", at: Self.day(0), billingPlan: .monthly) }
    }
}
