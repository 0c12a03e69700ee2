import EntitleWire
import Foundation
import Testing

@testable import EntitleKit

/// EntitleKit's customer info read from the server's answer: every part an app reads, its states as
/// cases, and the management URL.
@Suite("CustomerInfo (EntitleKit's model)")
struct CustomerInfoModelTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let month = now.addingTimeInterval(30 * 86_400)

    static func response(subscriptions: [SubscriptionInfo] = [], purchases: [SubscriptionInfo] = []) -> SubscriberResponse {
        SubscriberResponse(
            appUserID: "parent-1", serverTime: now,
            entitlements: [
                EntitlementInfo(
                    id: "family", isActive: true, state: .gracePeriod, source: .purchase, productID: "family.monthly", expiresAt: month,
                    willRenew: true, periodType: "offer_code", renewsToProductID: nil, isFamilyShared: false, limits: ["childDevices": 5, "notes": nil]),
                EntitlementInfo(
                    id: "archive", isActive: false, state: "frozen", source: "gift_card", productID: nil, expiresAt: nil, willRenew: false,
                    periodType: nil, renewsToProductID: nil, isFamilyShared: false, limits: [:]),
            ],
            subscriptions: subscriptions, purchases: purchases,
            pendingPurchases: [PendingPurchaseInfo(productID: "family.yearly", requestedAt: now, expiresAt: now.addingTimeInterval(86_400))],
            appTrial: AppTrialInfo(phase: .grace, startedAt: now, endsAt: now, lockoutAt: month),
            quotas: [QuotaInfo(feature: "conversations", window: "calendar_month", limit: 2, used: 1, remaining: 1, resetsAt: month)],
            lapse: .init(reason: .billingIssue, paywall: .updatePayment), appAccountToken: UUID(uuidString: "7E3FB20B-4CDB-47CC-936D-99D65F608138"),
            attributes: ["timeZone": "Pacific/Auckland", "role": "teacher"],
            items: [ItemInfo(limit: "childDevices", id: "ipad-1", name: "Mia's iPad", addedAt: now, isPaused: false)])
    }

    static func subscription(_ state: SubscriptionStateValue, kind: PurchaseKind = .autoRenewable) -> SubscriptionInfo {
        SubscriptionInfo(
            originalTransactionID: "1000", productID: "family.monthly", kind: kind, state: state, appleStatus: 4, willRenew: true,
            renewsToProductID: nil, purchasedAt: now, expiresAt: month, gracePeriodExpiresAt: month, periodType: "win_back",
            expirationReason: nil, revocationCause: nil, isFamilyShared: true, environment: "Sandbox", redundant: true)
    }

    @Test("every part of the server's answer reads into EntitleKit's types")
    func reads() throws {
        let info = CustomerInfo(response: Self.response(subscriptions: [Self.subscription(.gracePeriod)]), source: .server, age: 0)
        #expect(info.appUserID == "parent-1" && info.serverTime == Self.now && info.appAccountToken != nil)
        let family = try #require(info.entitlements.first)
        #expect(family.state == .gracePeriod && family.source == .purchase && family.periodType == .offerCode)
        #expect(family.limits == ["childDevices": .maximum(5), "notes": .unlimited])
        #expect(info.isActive("family", at: Self.now) && !info.isActive("family", at: Self.month))
        let subscription = try #require(info.subscriptions.first)
        #expect(subscription.id == "1000" && subscription.state == .gracePeriod && subscription.periodType == .winBack)
        #expect(subscription.isRedundant && subscription.isFamilyShared && subscription.kind == .autoRenewable)
        #expect(info.pendingPurchases.map(\.productID) == ["family.yearly"])
        #expect(info.appTrial.phase == .grace && info.appTrial.lockoutAt == Self.month)
        #expect(info.quota("conversations")?.remaining == 1 && info.quota("nothing") == nil)
        #expect(info.items.map(\.name) == ["Mia's iPad"] && info.attributes["role"] == "teacher")
        #expect(info.lapse == CustomerInfo.Lapse(reason: .billingIssue(gracePeriodEndsAt: nil), paywall: .updatePayment))
    }

    @Test("a state or source a newer server sends is kept as other, never read as a known one")
    func unknownValues() throws {
        let info = CustomerInfo(response: Self.response(), source: .cache, age: 60)
        let archive = try #require(info.entitlements.last)
        #expect(archive.state == .other("frozen") && archive.state.rawValue == "frozen")
        #expect(archive.source == .other("gift_card") && archive.periodType == nil)
        for state in EntitlementStateValue.known.map(\.rawValue) + SubscriptionStateValue.known.map(\.rawValue) {
            #expect(LifecycleState(rawValue: state) != .other(state) && LifecycleState(rawValue: state).rawValue == state)
        }
        for phase in AppTrialPhaseValue.known { #expect(AppTrial.Phase(phase).rawValue == phase.rawValue && AppTrial.Phase(phase) != .other(phase.rawValue)) }
        for kind in PurchaseKind.known { #expect(Subscription.Kind(kind).rawValue == kind.rawValue && Subscription.Kind(kind) != .other(kind.rawValue)) }
        for source in EntitlementSourceKind.known { #expect(Entitlement.Source(source) != .other(source.rawValue)) }
    }

    @Test("the management URL is Apple's page while the user has an App Store subscription, and absent otherwise")
    func managementURL() {
        #expect(CustomerInfo(response: Self.response(subscriptions: [Self.subscription(.expired)]), source: .server, age: 0).managementURL
            == Entitle.manageSubscriptionsURL)
        #expect(CustomerInfo(response: Self.response(purchases: [Self.subscription(.active, kind: .nonConsumable)]), source: .server, age: 0)
            .managementURL == nil)
    }
}
