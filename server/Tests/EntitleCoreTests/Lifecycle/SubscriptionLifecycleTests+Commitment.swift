import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

extension SubscriptionLifecycleTests {
    static let yearly = "app.pro.yearly"
    /// The commitment of a yearly product bought on day 0, billed monthly: 12 instalments of 4.17 (50.04 in all),
    /// ending on day 365.
    static let commitmentEnd = day(365)

    /// The transaction of the commitment's `period`-th instalment, for the month starting on `day(30 × (period − 1))`.
    static func instalment(_ period: Int32) -> JWSTransactionDecodedPayload {
        let start = day(30 * Double(period - 1))
        var transaction = apple.subscription(
            yearly, original: "5000", purchase: start, expires: period == 12 ? commitmentEnd : day(30 * Double(period)), price: 4_170,
            reason: period == 1 ? .purchase : .renewal)
        transaction.billingPlanType = .monthly
        transaction.commitmentInfo = TransactionCommitmentInfo(
            billingPeriodNumber: period, commitmentExpiresDate: commitmentEnd, commitmentPrice: 50_040, totalBillingPeriods: 12)
        return transaction
    }

    static func commitmentRenewal(autoRenew: AutoRenewStatus, commitmentAutoRenew: AutoRenewStatus?, signed: Date) -> JWSRenewalInfoDecodedPayload {
        var info = apple.renewal(original: "5000", product: yearly, autoRenew: autoRenew, signed: signed)
        info.renewalBillingPlanType = .monthly
        info.commitmentInfo = commitmentAutoRenew.map {
            RenewalCommitmentInfo(
                commitmentAutoRenewProductId: yearly, commitmentAutoRenewStatus: $0, commitmentRenewalBillingPlanType: .monthly,
                commitmentRenewalDate: commitmentEnd, commitmentRenewalPrice: 50_040)
        }
        return info
    }

    @Test("a monthly instalment of a 12-month commitment: active through the instalment, the term ends at the commitment's end")
    func commitmentInstalment() throws {
        let facts = Self.apple.chain("5000", [Self.instalment(1), Self.instalment(2), Self.instalment(3)],
                                     renewal: Self.commitmentRenewal(autoRenew: .on, commitmentAutoRenew: .on, signed: Self.day(60)))
        let status = try #require(SubscriptionLifecycle.status(of: facts, at: Self.day(70)))
        #expect(status.state == .active && status.willRenew)
        #expect(status.expiresAt == Self.day(90))
        let commitment = try #require(status.commitment)
        #expect(commitment.billingPeriod == 3 && commitment.totalBillingPeriods == 12 && commitment.periodsLeft == 9)
        #expect(commitment.endsAt == Self.commitmentEnd && commitment.price == 50_040 && commitment.renewalBillingPlan == .monthly)
        #expect(status.termEndsAt == Self.commitmentEnd)
    }

    @Test("auto-renew turned off in a commitment: still committed to every instalment, ending at the commitment's end", arguments: [
        // Apple's commitment status says it; the plain status (the next instalment) stays on.
        (AutoRenewStatus.on, AutoRenewStatus?.some(.off)),
        // Renewal info without commitment details: the plain status is the customer's choice.
        (AutoRenewStatus.off, AutoRenewStatus?.none),
    ])
    func commitmentCancelled(autoRenew: AutoRenewStatus, commitmentAutoRenew: AutoRenewStatus?) throws {
        let facts = Self.apple.chain("5000", [Self.instalment(3)],
                                     renewal: Self.commitmentRenewal(autoRenew: autoRenew, commitmentAutoRenew: commitmentAutoRenew, signed: Self.day(70)))
        let status = try #require(SubscriptionLifecycle.status(of: facts, at: Self.day(75)))
        #expect(status.state == .activeNotRenewing && !status.willRenew)
        #expect(status.commitment?.renews == false)
        // Its last day of access as chosen is the commitment's end, not the instalment's.
        #expect(status.termEndsAt == Self.commitmentEnd && status.expiresAt == Self.day(90))
    }

    @Test("the plain auto-renew status doesn't end a commitment Apple says renews")
    func commitmentRenewsDespitePlainStatus() throws {
        let facts = Self.apple.chain("5000", [Self.instalment(12)],
                                     renewal: Self.commitmentRenewal(autoRenew: .off, commitmentAutoRenew: .on, signed: Self.day(340)))
        let status = try #require(SubscriptionLifecycle.status(of: facts, at: Self.day(350)))
        #expect(status.state == .active && status.willRenew && status.commitment?.isLastPeriod == true)
    }

    @Test("a failed instalment goes through billing retry like any renewal, although the commitment runs on")
    func commitmentInstalmentFails() throws {
        var renewal = Self.commitmentRenewal(autoRenew: .on, commitmentAutoRenew: .on, signed: Self.day(90))
        renewal.isInBillingRetryPeriod = true
        renewal.expirationIntent = .billingError
        let facts = Self.apple.chain("5000", [Self.instalment(3)], renewal: renewal)
        let status = try #require(SubscriptionLifecycle.status(of: facts, at: Self.day(95)))
        #expect(status.state == .billingRetry && !status.isEntitled)
        #expect(status.commitment?.endsAt == Self.commitmentEnd)
    }
}
