import EntitleCore
import EntitleWire
import Foundation
import Testing

@testable import EntitleKit

/// EntitleKit's paywall event as the server takes it.
@Suite("PaywallEvent (EntitleKit's)")
struct PaywallEventModelTests {
    @Test("every kind is the server's, an event without an instant is stamped with the clock, and one opened by an access answer names its reason and gate")
    func asTheServerTakesIt() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(Set(EntitleKit.PaywallEvent.Kind.allCases.map(\.core)) == Set(PaywallEventKind.allCases))
        for kind in EntitleKit.PaywallEvent.Kind.allCases { #expect(EntitleKit.PaywallEvent.Kind(kind.core) == kind) }
        let shown = EntitleKit.PaywallEvent(.shown, offeringID: "default", paywallID: "wall")
        #expect(shown.core(now: now).at == now && shown.core(now: now).problem == nil)
        let denied = Access(AccessResponse(
            feature: "conversations", outcome: .denied, reason: .init(code: .quotaExhausted, maximum: 2), paywall: .subscribe, allowance: nil,
            quota: nil, serverTime: now))
        let opened = EntitleKit.PaywallEvent(.purchaseFailed, offeringID: "default", paywallID: "wall", openedBy: denied, productID: "p", outcome: "purchase.network")
        let core = opened.core(now: now)
        #expect(core.trigger == "quota_exhausted" && core.feature == "conversations" && core.productID?.rawValue == "p" && core.problem == nil)
        #expect(EntitleKit.PaywallEvent(core) == { var event = opened; event.at = now; return event }())
    }
}
