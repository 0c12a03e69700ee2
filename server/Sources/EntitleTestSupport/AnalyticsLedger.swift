import AppStoreModels
import EntitleCore
import Foundation

/// A small ledger whose analytics are computed by hand in the analytics tests: ScreenTimeRewards
/// (Individual 7.99 and Family 12.99 a month; app-managed trial 30 days + 7 days of grace), January
/// to March 2026.
///
/// - alice: app trial from Jan 1; introductory free trial Jan 10–17, paid from Jan 17; the Feb 17
///   renewal fails into a grace period ending Feb 23 and recovers Feb 20; renews Mar 20.
/// - bob: Individual from Jan 5, upgraded to Family Jan 20, renewed Feb 20, expires Mar 20.
/// - carol: app trial from Jan 25; Family from Feb 1, refunded Feb 10.
/// - dan: introductory free trial of Family Mar 1–8, not converted.
/// - erin: a family member sharing a Family subscription Feb 1 – Mar 1.
public enum AnalyticsLedger {
    public static let individual = "com.screentimerewards.individual.monthly"
    public static let family = "com.screentimerewards.family.monthly"

    public static func at(_ text: String) -> Date { ReferenceTime.instant(text) }

    /// Every event, in the order they happened.
    public static var events: [LedgerEvent] {
        let apple = AppleFacts(bundleID: "com.screentimerewards.app", environment: .production)
        var events: [LedgerEvent] = []
        var seed = 9_000
        func add(_ user: AppUserID, _ type: NotificationTypeV2?, _ subtype: Subtype?, _ transaction: JWSTransactionDecodedPayload?,
                 renewal: JWSRenewalInfoDecodedPayload? = nil) {
            seed += 1
            if let type {
                events.append(LedgerEvents.notification(seed, appUserID: user, type: type, subtype: subtype, transaction: transaction, renewalInfo: renewal))
            } else if let transaction {
                events.append(LedgerEvents.appTransaction(seed, appUserID: user, transaction))
            }
        }
        func trial(_ user: AppUserID, _ instant: String) {
            seed += 1
            events.append(LedgerEvent(
                id: LedgerEvents.id(seed), appUserID: user, source: .appTrialStart, idempotencyKey: "trial:\(user)",
                signedDate: at(instant), receivedAt: at(instant), payload: .appTrialStarted(at: at(instant))))
        }

        // alice
        trial("alice", "2026-01-01T10:00:00Z")
        let aliceTrial = apple.subscription(
            individual, original: "A", id: "A1", purchase: at("2026-01-10T12:00:00Z"), expires: at("2026-01-17T12:00:00Z"),
            offer: .introductoryOffer, discount: .freeTrial, groupID: "20776E67")
        add("alice", nil, nil, aliceTrial)
        add("alice", .subscribed, .initialBuy, aliceTrial)
        let aliceFirst = apple.subscription(
            individual, original: "A", id: "A2", purchase: at("2026-01-17T12:00:00Z"), expires: at("2026-02-17T12:00:00Z"),
            originalPurchase: at("2026-01-10T12:00:00Z"), groupID: "20776E67")
        add("alice", .didRenew, nil, aliceFirst)
        add("alice", .didFailToRenew, .gracePeriod, nil, renewal: apple.renewal(
            original: "A", product: individual, signed: at("2026-02-17T12:00:00Z"), expirationIntent: .billingError,
            billingRetry: true, graceEnds: at("2026-02-23T12:00:00Z")))
        add("alice", .didRenew, .billingRecovery, apple.subscription(
            individual, original: "A", id: "A3", purchase: at("2026-02-20T12:00:00Z"), expires: at("2026-03-20T12:00:00Z"),
            originalPurchase: at("2026-01-10T12:00:00Z"), groupID: "20776E67"))
        add("alice", .didRenew, nil, apple.subscription(
            individual, original: "A", id: "A4", purchase: at("2026-03-20T12:00:00Z"), expires: at("2026-04-20T12:00:00Z"),
            originalPurchase: at("2026-01-10T12:00:00Z"), groupID: "20776E67"))

        // bob
        let bobIndividual = apple.subscription(
            individual, original: "B", id: "B1", purchase: at("2026-01-05T12:00:00Z"), expires: at("2026-02-05T12:00:00Z"), groupID: "20776E67")
        add("bob", nil, nil, bobIndividual)
        add("bob", .subscribed, .initialBuy, bobIndividual)
        var upgradedAway = bobIndividual
        upgradedAway.isUpgraded = true
        upgradedAway.revocationDate = at("2026-01-20T12:00:00Z")
        upgradedAway.signedDate = at("2026-01-20T12:00:00Z")
        add("bob", nil, nil, upgradedAway)
        add("bob", .didChangeRenewalPref, .upgrade, apple.subscription(
            family, original: "B", id: "B2", purchase: at("2026-01-20T12:00:00Z"), expires: at("2026-02-20T12:00:00Z"),
            originalPurchase: at("2026-01-05T12:00:00Z"), price: 12990, reason: .purchase, groupID: "20776E67"))
        let bobRenewal = apple.subscription(
            family, original: "B", id: "B3", purchase: at("2026-02-20T12:00:00Z"), expires: at("2026-03-20T12:00:00Z"),
            originalPurchase: at("2026-01-05T12:00:00Z"), price: 12990, reason: .renewal, groupID: "20776E67")
        add("bob", .didRenew, nil, bobRenewal)
        add("bob", .didChangeRenewalStatus, .autoRenewDisabled, nil, renewal: apple.renewal(
            original: "B", product: family, autoRenew: .off, signed: at("2026-03-01T08:00:00Z")))
        var bobExpired = bobRenewal
        bobExpired.signedDate = at("2026-03-20T12:00:00Z")
        add("bob", .expired, .voluntary, bobExpired)

        // carol
        trial("carol", "2026-01-25T09:00:00Z")
        let carolPurchase = apple.subscription(
            family, original: "C", id: "C1", purchase: at("2026-02-01T12:00:00Z"), expires: at("2026-03-01T12:00:00Z"),
            price: 12990, groupID: "20776E67")
        add("carol", nil, nil, carolPurchase)
        add("carol", .subscribed, .initialBuy, carolPurchase)
        var refunded = carolPurchase
        refunded.revocationDate = at("2026-02-10T12:00:00Z")
        refunded.revocationReason = .other
        refunded.signedDate = at("2026-02-10T12:00:00Z")
        add("carol", .refund, nil, refunded)

        // dan
        let danTrial = apple.subscription(
            family, original: "D", id: "D1", purchase: at("2026-03-01T12:00:00Z"), expires: at("2026-03-08T12:00:00Z"),
            offer: .introductoryOffer, discount: .freeTrial, groupID: "20776E67")
        add("dan", nil, nil, danTrial)
        var danExpired = danTrial
        danExpired.signedDate = at("2026-03-08T12:00:00Z")
        add("dan", .expired, .voluntary, danExpired)

        // erin
        add("erin", .subscribed, .initialBuy, apple.subscription(
            family, original: "E", id: "E1", purchase: at("2026-02-01T12:00:00Z"), expires: at("2026-03-01T12:00:00Z"),
            price: 12990, ownership: .familyShared, groupID: "20776E67"))
        return events
    }
}
