import EntitleCore
import EntitleStorage
import EntitleWire
import Foundation
import Testing

@Suite("WireVocabulary")
struct WireVocabularyTests {
    @Test("every state, outcome, paywall, reason, phase and source the core produces is a known wire value")
    func coreValuesAreKnown() {
        for state in EntitlementState.allCases { #expect(EntitlementStateValue(rawValue: state.rawValue).isKnown, "\(state)") }
        for state in SubscriptionState.allCases { #expect(SubscriptionStateValue(rawValue: state.rawValue).isKnown, "\(state)") }
        for paywall in PaywallTrigger.allCases { #expect(Paywall(rawValue: paywall.rawValue).isKnown, "\(paywall)") }
        let outcomes: [AccessDecision.Outcome] = [.allowed, .allowedWithWarning, .denied]
        for outcome in outcomes { #expect(AccessOutcome(rawValue: outcome.rawValue).isKnown, "\(outcome)") }
        let reasons: [AccessReason] = [
            .noSubscription, .expired, .trialExpired, .revoked, .billingIssue(gracePeriodEndsAt: nil), .appGrace(lockoutAt: .distantFuture),
            .notIncluded, .limitExceeded(maximum: 1), .quotaExhausted(limit: 2, resetsAt: nil), .unknownFeature,
        ]
        for reason in reasons { #expect(AccessReasonCode(rawValue: reason.code).isKnown, "\(reason)") }
        let phases: [AppTrialPhase] = [
            .notStarted, .active(endsAt: .distantFuture), .grace(trialEndedAt: .distantPast, lockoutAt: .distantFuture),
            .lockout(since: .distantPast), .superseded(at: .distantPast),
        ]
        for phase in phases { #expect(AppTrialPhaseValue(rawValue: phase.name).isKnown, "\(phase)") }
        let sources: [EntitlementSource] = [.purchase(originalTransactionID: "1"), .appTrial, .expiryGrace, .grant(id: "g"), .openAccess, .household(id: "h")]
        for source in sources { #expect(EntitlementSourceKind(rawValue: source.kind).isKnown, "\(source)") }
        for type in WebhookEventType.allCases { #expect(WebhookEventTypeValue(rawValue: type.rawValue).isKnown, "\(type)") }
        #expect(Set(WebhookEventTypeValue.known.map(\.rawValue)) == Set(WebhookEventType.allCases.map(\.rawValue)), "no wire type the core never sends")
        for kind in ProductKind.allCases { #expect(PurchaseKind(rawValue: kind.rawValue).isKnown, "\(kind)") }
        for kind in SubscriptionOffer.Kind.allCases { #expect(OfferKind(rawValue: kind.rawValue).isKnown, "\(kind)") }
        for state in AdminJob.State.allCases { #expect(JobState(rawValue: state.rawValue).isKnown, "\(state)") }
        for status in WebhookDelivery.Status.allCases { #expect(WebhookDeliveryStatus(rawValue: status.rawValue).isKnown, "\(status)") }
        for kind in StoredKey.Kind.allCases { #expect(KeyKind(rawValue: kind.rawValue).isKnown, "\(kind)") }
    }

    @Test("a value a newer server sends decodes, is reported unknown, and encodes back unchanged")
    func unknownValuesDecode() throws {
        let json = #"{"feature":"export","outcome":"allowed_after_ad","paywall":"watch_ad","reason":{"code":"ad_required"},"serverTime":"2026-01-01T00:00:00Z"}"#
        let response = try WireJSON.decoder.decode(AccessResponse.self, from: Data(json.utf8))
        #expect(response.outcome == "allowed_after_ad")
        #expect(!response.outcome.isKnown)
        #expect(response.paywall?.isKnown == false)
        #expect(response.reason?.code.rawValue == "ad_required")
        let again = try WireJSON.decoder.decode(AccessResponse.self, from: try WireJSON.encoder.encode(response))
        #expect(again == response)
        #expect(response.outcome != .allowed && AccessOutcome.allowed.isKnown)
    }
}
