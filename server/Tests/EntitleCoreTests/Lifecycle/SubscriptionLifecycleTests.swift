import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("SubscriptionLifecycle")
struct SubscriptionLifecycleTests {
    static let apple = AppleFacts()
    static let t0 = ReferenceTime.start
    static let month = ReferenceTime.day(31)
    static func day(_ n: Double) -> Date { ReferenceTime.day(n) }

    /// One Apple-shaped situation and the state Apple's semantics give it.
    struct StateCase: Sendable, CustomTestStringConvertible {
        var name: String
        var facts: SubscriptionFacts
        var at: Date
        var state: SubscriptionState
        var appleStatus: Status?
        var expirationReason: ExpirationReason? = nil
        var revocationCause: RevocationCause? = nil
        var periodType: PeriodType? = nil
        var nonRenewingDuration: ISODuration? = nil
        var testDescription: String { name }
    }

    static let monthly = "app.pro.monthly"
    static func sub(offer: OfferType? = nil, discount: OfferDiscountType? = nil, ownership: InAppOwnershipType = .purchased,
                    upgraded: Bool? = nil, revoked: Date? = nil, reason: RevocationReason? = nil, type: RevocationType? = nil) -> JWSTransactionDecodedPayload {
        apple.subscription(monthly, original: "1000", purchase: t0, expires: month, offer: offer, discount: discount,
                           ownership: ownership, upgraded: upgraded, revoked: revoked, revocationReason: reason, revocationType: type)
    }
    static func renewal(autoRenew: AutoRenewStatus = .on, intent: ExpirationIntent? = nil, retry: Bool? = false, grace: Date? = nil, signed: Date = month) -> JWSRenewalInfoDecodedPayload {
        apple.renewal(original: "1000", product: monthly, autoRenew: autoRenew, signed: signed, expirationIntent: intent, billingRetry: retry, graceEnds: grace)
    }
    static let stateCases: [StateCase] = [
        StateCase(name: "free-trial introductory offer", facts: apple.chain("1000", [sub(offer: .introductoryOffer, discount: .freeTrial)], renewal: renewal(signed: t0)),
                  at: day(3), state: .trial, appleStatus: .active, periodType: .trial),
        StateCase(name: "pay-as-you-go introductory offer is active, not a trial", facts: apple.chain("1000", [sub(offer: .introductoryOffer, discount: .payAsYouGo)]),
                  at: day(3), state: .active, appleStatus: .active, periodType: .intro),
        StateCase(name: "promotional offer", facts: apple.chain("1000", [sub(offer: .promotionalOffer, discount: .payUpFront)]),
                  at: day(3), state: .active, appleStatus: .active, periodType: .promotional),
        StateCase(name: "active, renewing", facts: apple.chain("1000", [sub()], renewal: renewal(signed: t0)), at: day(10), state: .active, appleStatus: .active, periodType: .normal),
        StateCase(name: "active, auto-renew turned off", facts: apple.chain("1000", [sub()], renewal: renewal(autoRenew: .off, signed: day(5))),
                  at: day(10), state: .activeNotRenewing, appleStatus: .active),
        StateCase(name: "billing grace period", facts: apple.chain("1000", [sub()], renewal: renewal(retry: true, grace: day(47))),
                  at: day(35), state: .gracePeriod, appleStatus: .billingGracePeriod),
        StateCase(name: "billing retry, no grace period", facts: apple.chain("1000", [sub()], renewal: renewal(intent: .billingError, retry: true)),
                  at: day(35), state: .billingRetry, appleStatus: .billingRetry, expirationReason: .billingError),
        StateCase(name: "billing retry after the grace period ended", facts: apple.chain("1000", [sub()], renewal: renewal(retry: true, grace: day(37))),
                  at: day(40), state: .billingRetry, appleStatus: .billingRetry, expirationReason: .billingError),
        StateCase(name: "expired: customer cancelled", facts: apple.chain("1000", [sub()], renewal: renewal(autoRenew: .off, intent: .customerCancelled)),
                  at: day(40), state: .expired, appleStatus: .expired, expirationReason: .voluntary),
        StateCase(name: "expired: billing error", facts: apple.chain("1000", [sub()], renewal: renewal(intent: .billingError, retry: false)),
                  at: day(100), state: .expired, appleStatus: .expired, expirationReason: .billingError),
        StateCase(name: "expired: price increase declined", facts: apple.chain("1000", [sub()], renewal: renewal(autoRenew: .off, intent: .customerDidNotConsentToPriceIncrease)),
                  at: day(40), state: .expired, appleStatus: .expired, expirationReason: .priceIncreaseDeclined),
        StateCase(name: "expired: product not available", facts: apple.chain("1000", [sub()], renewal: renewal(intent: .productNotAvailable)),
                  at: day(40), state: .expired, appleStatus: .expired, expirationReason: .productUnavailable),
        StateCase(name: "expired: other", facts: apple.chain("1000", [sub()], renewal: renewal(intent: .other)),
                  at: day(40), state: .expired, appleStatus: .expired, expirationReason: .other),
        StateCase(name: "expired: intent Apple added later", facts: apple.chain("1000", [sub()], renewal: renewal(intent: ExpirationIntent(rawValue: 9))),
                  at: day(40), state: .expired, appleStatus: .expired, expirationReason: .other),
        StateCase(name: "expired with no renewal info yet", facts: apple.chain("1000", [sub()]),
                  at: day(40), state: .expired, appleStatus: .expired, expirationReason: .unknown),
        StateCase(name: "revoked: refund", facts: apple.chain("1000", [sub(revoked: day(9), reason: .other)]),
                  at: day(10), state: .revoked, appleStatus: .revoked, revocationCause: .refund),
        StateCase(name: "revoked: refund for an app issue", facts: apple.chain("1000", [sub(revoked: day(9), reason: .appIssue, type: .refundFull)]),
                  at: day(10), state: .revoked, appleStatus: .revoked, revocationCause: .refundAppIssue),
        StateCase(name: "revoked: Family Sharing removed", facts: apple.chain("1000", [sub(ownership: .familyShared, revoked: day(9), type: .familyRevoke)]),
                  at: day(10), state: .revoked, appleStatus: .revoked, revocationCause: .familySharingRemoved),
        StateCase(name: "a refund dated later hasn't happened yet", facts: apple.chain("1000", [sub(revoked: day(20), reason: .other)]),
                  at: day(10), state: .active, appleStatus: .active),
        StateCase(name: "upgraded away, new transaction not yet known", facts: apple.chain("1000", [sub(upgraded: true, revoked: day(9))]),
                  at: day(10), state: .upgraded, appleStatus: nil),
        StateCase(name: "family-shared subscription entitles", facts: apple.chain("1000", [sub(ownership: .familyShared)]),
                  at: day(10), state: .active, appleStatus: .active),
        StateCase(name: "lifetime non-consumable", facts: apple.chain("L1", [apple.purchase("app.lifetime", id: "L1", at: t0)]),
                  at: day(4000), state: .active, appleStatus: nil, periodType: .lifetime),
        StateCase(name: "refunded non-consumable", facts: apple.chain("L1", [apple.purchase("app.lifetime", id: "L1", at: t0, revoked: day(3))]),
                  at: day(4), state: .revoked, appleStatus: nil, revocationCause: .refund),
        StateCase(name: "non-renewing subscription within its duration", facts: apple.chain("N1", [apple.purchase("app.pass", id: "N1", at: t0, type: .nonRenewing)]),
                  at: day(300), state: .active, appleStatus: nil, periodType: .prepaid, nonRenewingDuration: ISODuration(years: 1)),
        StateCase(name: "non-renewing subscription after its duration", facts: apple.chain("N1", [apple.purchase("app.pass", id: "N1", at: t0, type: .nonRenewing)]),
                  at: day(366), state: .expired, appleStatus: nil, expirationReason: .periodEnded, nonRenewingDuration: ISODuration(years: 1)),
    ]

    @Test("every lifecycle state from Apple-shaped facts", arguments: stateCases)
    func state(_ stateCase: StateCase) throws {
        let status = try #require(SubscriptionLifecycle.status(of: stateCase.facts, at: stateCase.at, nonRenewingDuration: stateCase.nonRenewingDuration))
        #expect(status.state == stateCase.state)
        #expect(status.appleStatus == stateCase.appleStatus)
        #expect(status.isEntitled == stateCase.state.isEntitled)
        #expect(status.expirationReason == stateCase.expirationReason)
        #expect(status.revocationCause == stateCase.revocationCause)
        if let periodType = stateCase.periodType { #expect(status.periodType == periodType) }
    }

    @Test("the state table covers every lifecycle state")
    func coverage() {
        #expect(Set(Self.stateCases.map(\.state)) == Set(SubscriptionState.allCases))
    }

    @Test("billing grace entitles until the grace period's end, and no further")
    func graceBoundary() throws {
        let facts = Self.apple.chain("1000", [Self.sub()], renewal: Self.renewal(retry: true, grace: Self.day(47)))
        let inGrace = try #require(SubscriptionLifecycle.status(of: facts, at: Self.day(46.9)))
        #expect(inGrace.entitledUntil == Self.day(47))
        #expect(SubscriptionLifecycle.status(of: facts, at: Self.day(47))?.state == .billingRetry)
    }

    @Test("a consumable or an empty chain has no lifecycle")
    func noLifecycle() {
        let coins = Self.apple.chain("C1", [Self.apple.purchase("app.coins", id: "C1", at: Self.t0, type: .consumable)])
        #expect(SubscriptionLifecycle.status(of: coins, at: Self.day(1)) == nil)
        #expect(SubscriptionLifecycle.status(of: SubscriptionFacts(originalTransactionID: "x"), at: Self.day(1)) == nil)
    }

    @Test("an upgrade takes effect at once: the higher product's transaction is current")
    func upgradeAtOnce() throws {
        let individual = Self.apple.subscription("individual.monthly", original: "1000", id: "t1", purchase: Self.t0, expires: Self.month,
                                                  signed: Self.day(10), upgraded: true, revoked: Self.day(10))
        let family = Self.apple.subscription("family.monthly", original: "1000", id: "t2", purchase: Self.day(10), expires: Self.day(41), price: 12990)
        let status = try #require(SubscriptionLifecycle.status(of: Self.apple.chain("1000", [individual, family]), at: Self.day(10)))
        #expect(status.state == .active)
        #expect(status.productID == "family.monthly")
        #expect(status.revocationCause == nil)
    }

    @Test("a downgrade takes effect at renewal: the current product stays until the period ends")
    func downgradeAtRenewal() throws {
        let family = Self.apple.subscription("family.monthly", original: "1000", id: "t1", purchase: Self.t0, expires: Self.month)
        let downgrade = Self.apple.renewal(original: "1000", product: "family.monthly", autoRenewProduct: "individual.monthly", signed: Self.day(12))
        var facts = Self.apple.chain("1000", [family], renewal: downgrade)
        let before = try #require(SubscriptionLifecycle.status(of: facts, at: Self.day(20)))
        #expect(before.productID == "family.monthly")
        #expect(before.renewsToProductID == "individual.monthly")
        #expect(before.willRenew)

        facts.record(Self.apple.subscription("individual.monthly", original: "1000", id: "t2", purchase: Self.month, expires: Self.day(59), reason: .renewal))
        facts.record(Self.apple.renewal(original: "1000", product: "individual.monthly", signed: Self.month))
        let after = try #require(SubscriptionLifecycle.status(of: facts, at: Self.day(32)))
        #expect(after.productID == "individual.monthly")
        #expect(after.renewsToProductID == nil)
    }

    @Test("REFUND_REVERSED restores access, whether Apple re-signs the transaction or only reports the reversal")
    func refundReversed() throws {
        let original = Self.sub()
        let refunded = Self.apple.subscription(Self.monthly, original: "1000", id: original.transactionId, purchase: Self.t0, expires: Self.month,
                                                signed: Self.day(5), revoked: Self.day(5), revocationReason: .other)
        let reinstated = Self.apple.subscription(Self.monthly, original: "1000", id: original.transactionId, purchase: Self.t0, expires: Self.month, signed: Self.day(8))

        var facts = Self.apple.chain("1000", [original, refunded])
        #expect(SubscriptionLifecycle.status(of: facts, at: Self.day(6))?.state == .revoked)
        facts.record(reinstated)
        #expect(SubscriptionLifecycle.status(of: facts, at: Self.day(9))?.state == .active)

        var reported = Self.apple.chain("1000", [original, refunded])
        reported.recordRefundReversal(transactionID: original.transactionId!, signedDate: Self.day(8))
        #expect(SubscriptionLifecycle.status(of: reported, at: Self.day(9))?.state == .active)
        // A reversal older than the refund doesn't undo it.
        var stale = Self.apple.chain("1000", [original, refunded])
        stale.recordRefundReversal(transactionID: original.transactionId!, signedDate: Self.day(4))
        #expect(SubscriptionLifecycle.status(of: stale, at: Self.day(9))?.state == .revoked)
    }

    @Test("a renewal after billing retry recovers the subscription")
    func billingRecovery() throws {
        var facts = Self.apple.chain("1000", [Self.sub()], renewal: Self.renewal(intent: .billingError, retry: true, signed: Self.month))
        #expect(SubscriptionLifecycle.status(of: facts, at: Self.day(33))?.state == .billingRetry)
        facts.record(Self.apple.subscription(Self.monthly, original: "1000", purchase: Self.day(33), expires: Self.day(64), reason: .renewal))
        facts.record(Self.apple.renewal(original: "1000", product: Self.monthly, signed: Self.day(33)))
        let status = try #require(SubscriptionLifecycle.status(of: facts, at: Self.day(34)))
        #expect(status.state == .active)
        #expect(status.expiresAt == Self.day(64))
    }
}
