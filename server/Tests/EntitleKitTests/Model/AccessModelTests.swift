import EntitleWire
import Foundation
import Testing

@testable import EntitleKit

/// EntitleKit's access answer read from the API's: every documented reason with its figure, and values a
/// newer server sends kept rather than lost or mistaken.
@Suite("Access (EntitleKit's answer)")
struct AccessModelTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let later = Date(timeIntervalSince1970: 1_800_086_400)

    @Test(
        "each reason the API documents reads as its case, with the figure or instant it carries",
        arguments: [
            (AccessResponse.Reason(code: .noSubscription), Access.Reason.noSubscription),
            (.init(code: .expired), .expired),
            (.init(code: .trialExpired), .trialExpired),
            (.init(code: .revoked), .revoked),
            (.init(code: .billingIssue, gracePeriodEndsAt: later), .billingIssue(gracePeriodEndsAt: later)),
            (.init(code: .appGrace, lockoutAt: later), .appGrace(lockoutAt: later)),
            (.init(code: .notIncluded), .notIncluded),
            (.init(code: .limitExceeded, maximum: 5), .limitExceeded(maximum: 5)),
            (.init(code: .quotaExhausted, maximum: 2, resetsAt: later), .quotaExhausted(limit: 2, resetsAt: later)),
            (.init(code: .unknownFeature), .unknownFeature),
            (.init(code: "rate_limited"), .other("rate_limited")),
        ])
    func reasons(wire: AccessResponse.Reason, expected: Access.Reason) {
        let reason = Access.Reason(wire)
        #expect(reason == expected)
        #expect(reason.code == wire.code.rawValue)
    }

    @Test("every documented reason code has its own case: none falls into other")
    func everyDocumentedReason() {
        for code in AccessReasonCode.known {
            let reason = Access.Reason(code)
            #expect(reason != .other(code.rawValue), "\(code)")
            #expect(reason.code == code.rawValue)
        }
    }

    @Test("outcomes and paywalls: the documented ones are cases, an unknown one is kept and never allows")
    func outcomesAndPaywalls() {
        for outcome in AccessOutcome.known { #expect(Access.Outcome(outcome).rawValue == outcome.rawValue && Access.Outcome(outcome) != .other(outcome.rawValue)) }
        for paywall in EntitleWire.Paywall.known { #expect(Paywall(paywall).rawValue == paywall.rawValue && Paywall(paywall) != .other(paywall.rawValue)) }
        let future = Access(AccessResponse(
            feature: "export", outcome: "allowed_later", reason: nil, paywall: "gift", allowance: nil, quota: nil, serverTime: Self.now))
        #expect(future.outcome == .other("allowed_later") && !future.isAllowed)
        #expect(future.paywall == .other("gift") && future.paywall?.rawValue == "gift")
    }

    @Test("a quota's answer carries its use and limit; a limit's its maximum, unlimited told apart from none")
    func quotaAndLimit() {
        let quota = QuotaInfo(feature: "conversations", window: "calendar_month", limit: 2, used: 2, remaining: 0, resetsAt: Self.later)
        let exhausted = Access(AccessResponse(
            feature: "conversations", outcome: .denied, reason: .init(code: .quotaExhausted, maximum: 2, resetsAt: Self.later), paywall: .subscribe,
            allowance: .init(maximum: 2), quota: quota, serverTime: Self.now))
        #expect(!exhausted.isAllowed && exhausted.paywall == .subscribe)
        #expect(exhausted.quota?.used == 2 && exhausted.quota?.remaining == 0 && exhausted.quota?.resetsAt == Self.later)
        #expect(exhausted.limit == .maximum(2) && exhausted.quota?.limit == .maximum(2))
        let unlimited = Access(AccessResponse(
            feature: "childDevices", outcome: .allowed, reason: nil, paywall: nil, allowance: .init(maximum: nil), quota: nil, serverTime: Self.now))
        #expect(unlimited.isAllowed && unlimited.limit == .unlimited && unlimited.limit?.allows(1_000) == true)
        let feature = Access(AccessResponse(feature: "library", outcome: .allowedWithWarning, reason: .init(code: .billingIssue), paywall: .updatePayment, allowance: nil, quota: nil, serverTime: Self.now))
        #expect(feature.isAllowed && feature.limit == nil && feature.reason == .billingIssue(gracePeriodEndsAt: nil))
    }
}
