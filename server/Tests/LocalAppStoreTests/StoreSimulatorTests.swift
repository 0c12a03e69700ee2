import AppStoreModels
import AppStoreVerification
import EntitleCore
import EntitleTestSupport
import Foundation
import LocalAppStore
import Testing

@Suite("StoreSimulator")
struct StoreSimulatorTests {
    static let family = "com.screentimerewards.family.monthly"
    static let individual = "com.screentimerewards.individual.monthly"
    static let authority = Result { try LocalCertificateAuthority.create(now: ReferenceTime.start) }

    static func store(_ example: String = "ScreenTimeRewards", bundleID: String = "com.screentimerewards", timeScale: TimeScale = .real) throws -> StoreSimulator {
        StoreSimulator(catalog: Fixtures.exampleCatalog(example), bundleID: bundleID, signer: try authority.get().signer, timeScale: timeScale)
    }

    static func verifier(_ bundleID: String = "com.screentimerewards") throws -> SignedDataVerifier {
        SignedDataVerifier(
            configuration: VerifierConfiguration(bundleID: bundleID, environment: .sandbox, rootCertificates: [try authority.get().root]),
            now: { ReferenceTime.day(1000) })
    }

    static func day(_ n: Double) -> Date { ReferenceTime.day(n) }

    @Test("identifiers follow Apple's: a new transactionId and webOrderLineItemId per period, a constant originalTransactionId")
    func identifiers() async throws {
        var store = try Self.store()
        let verifier = try Self.verifier()
        let purchase = try store.purchase(Self.individual, at: Self.day(0), introductoryOffer: false)
        var transactions = [purchase.transaction]
        for _ in 0..<3 {
            let renewal = try store.renew(purchase.originalTransactionID)
            let verified = try await verifier.verifyNotification(renewal[0].signedPayload)
            transactions.append(try #require(verified.transactionInfo))
        }
        #expect(Set(transactions.compactMap(\.transactionId)).count == 4)
        #expect(Set(transactions.compactMap(\.webOrderLineItemId)).count == 4)
        #expect(Set(transactions.compactMap(\.originalTransactionId)) == [purchase.originalTransactionID])
        #expect(transactions.map(\.transactionReason) == [.purchase, .renewal, .renewal, .renewal])
        #expect(zip(transactions, transactions.dropFirst()).allSatisfy { $0.expiresDate == $1.purchaseDate })
    }

    @Test("the introductory free trial: offerType 1 with FREE_TRIAL at price 0, once per account and group")
    func introductoryOffer() throws {
        var store = try Self.store()
        let account = UUID()
        let first = try store.purchase(Self.individual, appAccountToken: account, at: Self.day(0))
        #expect(first.transaction.offerType == .introductoryOffer)
        #expect(first.transaction.offerDiscountType == .freeTrial)
        #expect(first.transaction.price == 0)
        #expect(first.transaction.expiresDate == Self.day(31))
        let again = try store.purchase(Self.family, appAccountToken: account, at: Self.day(40))
        #expect(again.transaction.offerType == nil)
        #expect(again.transaction.price == 12990)
    }

    @Test("Apple's accelerated sandbox time: a month lasts 5 minutes")
    func accelerated() throws {
        var store = try Self.store(timeScale: .appleSandbox)
        let purchase = try store.purchase(Self.individual, at: Self.day(0), introductoryOffer: false)
        #expect(purchase.transaction.expiresDate == Self.day(0) + 300)
    }

    @Test("a crossgrade to the same duration starts a new period at once with no subtype; to another duration it waits for the renewal")
    func crossgrades() async throws {
        var store = try Self.store("Crossgrades", bundleID: "com.screentimerewards")
        let verifier = try Self.verifier()
        let purchase = try store.purchase("screentime.1child.monthly", at: Self.day(0), introductoryOffer: false)
        let original = purchase.originalTransactionID

        let across = try store.changeProduct(original, to: "screentime.1child.monthly.classic", at: Self.day(10))
        let immediate = try await verifier.verifyNotification(across[0].signedPayload)
        #expect(immediate.notification.notificationType == .didChangeRenewalPref && immediate.notification.subtype == nil)
        #expect(immediate.transactionInfo?.productId == "screentime.1child.monthly.classic")
        #expect(immediate.transactionInfo?.purchaseDate == Self.day(10))
        #expect(immediate.transactionInfo?.transactionId != purchase.transaction.transactionId)

        let later = try store.changeProduct(original, to: "screentime.1child.yearly", at: Self.day(15))
        let atRenewal = try await verifier.verifyNotification(later[0].signedPayload)
        #expect(atRenewal.notification.notificationType == .didChangeRenewalPref && atRenewal.notification.subtype == nil)
        #expect(atRenewal.transactionInfo?.productId == "screentime.1child.monthly.classic")
        #expect(atRenewal.renewalInfo?.autoRenewProductId == "screentime.1child.yearly")
        let renewed = try await verifier.verifyNotification(try store.renew(original)[0].signedPayload)
        #expect(renewed.transactionInfo?.productId == "screentime.1child.yearly")
    }

    /// Plays every notification the store emits and checks each through the verifier.
    @Test("every notification type and subtype it emits is signed, verifies, and says what was played")
    func everyNotification() async throws {
        var store = try Self.store()
        var emitted: [SignedNotification] = []
        let a = try store.purchase(Self.individual, appAccountToken: UUID(), at: Self.day(0))
        emitted += a.notifications
        let o = a.originalTransactionID
        emitted += try store.renew(o)                                            // DID_RENEW
        emitted += try store.changeProduct(o, to: Self.family, at: Self.day(40))   // UPGRADE
        emitted += try store.changeProduct(o, to: Self.individual, at: Self.day(45)) // DOWNGRADE
        emitted += try store.changeProduct(o, to: Self.family, at: Self.day(46))   // cancels the downgrade
        emitted += try store.priceIncrease(o, consented: false, at: Self.day(47))
        emitted += try store.priceIncrease(o, consented: true, at: Self.day(48))
        emitted += try store.redeemOffer(o, type: .promotionalOffer, identifier: "loyalty", at: Self.day(49))
        emitted += try store.extendRenewal(o, days: 5, at: Self.day(50))
        let shared = try store.shareWithFamily(o, at: Self.day(50))
        emitted += shared.notifications
        emitted += try store.failRenewal(o)                                      // DID_FAIL_TO_RENEW, GRACE_PERIOD
        emitted += try store.renew(o, at: Self.day(80))                          // BILLING_RECOVERY
        emitted += try store.failRenewal(o)
        emitted += try store.expireGracePeriod(o)
        emitted += try store.expire(o, reason: .billingRetry, at: Self.day(160))
        emitted += try store.resubscribe(o, at: Self.day(170)).notifications
        emitted += try store.setAutoRenew(o, false, at: Self.day(171))
        emitted += try store.setAutoRenew(o, true, at: Self.day(172))
        emitted.append(try store.consumptionRequest(o, at: Self.day(173)))
        emitted += try store.refund(o, at: Self.day(174))
        emitted += try store.reverseRefund(o, at: Self.day(175))
        let member = try store.shareWithFamily(o, at: Self.day(176))
        emitted += member.notifications
        emitted += try store.stopFamilySharing(member.originalTransactionID, at: Self.day(177))
        for reason in [StoreSimulator.ExpiryReason.voluntary, .priceIncrease, .productNotForSale] {
            let chain = try store.purchase(Self.individual, at: Self.day(200), introductoryOffer: false)
            if reason == .voluntary { emitted += try store.setAutoRenew(chain.originalTransactionID, false, at: Self.day(201)) }
            emitted += try store.expire(chain.originalTransactionID, reason: reason)
        }
        var noGrace = StoreSimulator(
            catalog: Fixtures.exampleCatalog("ScreenTimeRewards"), bundleID: "com.screentimerewards", signer: try Self.authority.get().signer,
            billingGracePeriod: nil, firstIdentifier: 3_000_000_000_000_001)
        let plain = try noGrace.purchase(Self.individual, at: Self.day(0), introductoryOffer: false)
        emitted += try noGrace.failRenewal(plain.originalTransactionID)
        emitted.append(try store.testNotification(at: Self.day(300)))
        var stories = try Self.store("MagicalStories", bundleID: "com.screentimerewards")
        emitted += try stories.purchase("com.magicalstories.lifetime", at: Self.day(1)).notifications

        let verifier = try Self.verifier()
        var seen: Set<String> = []
        for notification in emitted {
            let verified = try await verifier.verifyNotification(notification.signedPayload)
            #expect(verified.notification.notificationType == notification.type)
            #expect(verified.notification.subtype == notification.subtype)
            #expect(verified.notification.notificationUUID == notification.notificationUUID)
            if notification.type != .test {
                #expect(verified.transactionInfo?.originalTransactionId == notification.originalTransactionID)
            }
            seen.insert([notification.type.rawValue, notification.subtype?.rawValue].compactMap { $0 }.joined(separator: "/"))
        }
        let expected: Set<String> = [
            "SUBSCRIBED/INITIAL_BUY", "SUBSCRIBED/RESUBSCRIBE", "DID_RENEW", "DID_RENEW/BILLING_RECOVERY",
            "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED",
            "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_PREF/UPGRADE", "DID_CHANGE_RENEWAL_PREF/DOWNGRADE",
            "DID_FAIL_TO_RENEW", "DID_FAIL_TO_RENEW/GRACE_PERIOD", "GRACE_PERIOD_EXPIRED",
            "EXPIRED/VOLUNTARY", "EXPIRED/BILLING_RETRY", "EXPIRED/PRICE_INCREASE", "EXPIRED/PRODUCT_NOT_FOR_SALE",
            "REFUND", "REFUND_REVERSED", "REVOKE", "OFFER_REDEEMED", "PRICE_INCREASE/PENDING", "PRICE_INCREASE/ACCEPTED",
            "RENEWAL_EXTENDED", "CONSUMPTION_REQUEST", "TEST", "ONE_TIME_CHARGE",
        ]
        #expect(seen == expected)
    }

    @Test("family sharing: the member's chain is FAMILY_SHARED, renews with the purchaser's, and a refund revokes it")
    func familySharing() async throws {
        var store = try Self.store()
        let verifier = try Self.verifier()
        let purchase = try store.purchase(Self.family, at: Self.day(0), introductoryOffer: false)
        let member = try store.shareWithFamily(purchase.originalTransactionID, at: Self.day(1))
        #expect(member.transaction.inAppOwnershipType == .familyShared)
        #expect(member.originalTransactionID != purchase.originalTransactionID)
        let renewed = try store.renew(purchase.originalTransactionID)
        #expect(renewed.map(\.originalTransactionID) == [purchase.originalTransactionID, member.originalTransactionID])
        let refunded = try store.refund(purchase.originalTransactionID, at: Self.day(40))
        #expect(refunded.map(\.type) == [.refund, .revoke])
        let revoke = try await verifier.verifyNotification(refunded[1].signedPayload)
        #expect(revoke.transactionInfo?.revocationDate == Self.day(40))
        #expect(store.subscription(member.originalTransactionID)?.expectedState(at: Self.day(41)) == "revoked")
    }

    @Test("operations that don't apply are typed errors, and change nothing")
    func invalidOperations() throws {
        var store = try Self.store()
        #expect(throws: LocalStoreError(.unknownProduct, "")) { try store.purchase("com.nope", at: Self.day(0)) }
        #expect(throws: LocalStoreError(.unknownSubscription, "")) { try store.renew("42") }
        let purchase = try store.purchase(Self.individual, at: Self.day(0), introductoryOffer: false)
        _ = try store.refund(purchase.originalTransactionID, at: Self.day(2))
        let before = store.subscription(purchase.originalTransactionID)
        #expect(throws: LocalStoreError(.invalidTransition, "")) { try store.renew(purchase.originalTransactionID) }
        #expect(throws: LocalStoreError(.invalidTransition, "")) { try store.expire(purchase.originalTransactionID, reason: .voluntary) }
        #expect(throws: LocalStoreError(.invalidTransition, "")) { try store.shareWithFamily(purchase.originalTransactionID, at: Self.day(3)) }
        #expect(store.subscription(purchase.originalTransactionID) == before)
    }
}
