import AppStoreModels
import AppStoreVerification
import EntitleCore
import EntitleTestSupport
import Foundation
import LocalAppStore
import Testing

/// The local App Store as an account buys from it: Apple's rules for a second purchase in a group, an
/// owned non-consumable, and who restores what.
@Suite("LocalStoreAccounts")
struct LocalStoreAccountsTests {
    static let screenTime = "com.screentimerewards"
    static let stories = "com.magicalstories.app"

    static func accounts() throws -> LocalStoreAccounts {
        LocalStoreAccounts(stores: [
            screenTime: try StoreSimulatorTests.store(),
            stories: try StoreSimulatorTests.store("MagicalStories", bundleID: stories),
        ])
    }

    static func verify(_ signed: String, bundleID: String = screenTime) async throws -> JWSTransactionDecodedPayload {
        try await StoreSimulatorTests.verifier(bundleID).verifyTransaction(signed)
    }

    @Test("buying the family plan while the individual one is active upgrades it: one subscription, a new transaction of the same chain, the old one isUpgraded")
    func upgradeInGroup() async throws {
        let accounts = try Self.accounts()
        let first = try accounts.purchase(
            bundleID: Self.screenTime, productID: StoreSimulatorTests.individual, account: "parent", appAccountToken: nil, at: StoreSimulatorTests.day(0))
        let upgrade = try accounts.purchase(
            bundleID: Self.screenTime, productID: StoreSimulatorTests.family, account: "parent", appAccountToken: nil, at: StoreSimulatorTests.day(3))
        #expect(upgrade.originalTransactionID == first.originalTransactionID)
        #expect(upgrade.transaction.productId == StoreSimulatorTests.family)
        #expect(upgrade.transaction.transactionId != first.transaction.transactionId)
        let verifier = try StoreSimulatorTests.verifier()
        let notification = try await verifier.verifyNotification(try #require(upgrade.notifications.first).signedPayload)
        #expect(notification.notification.notificationType == .didChangeRenewalPref && notification.notification.subtype == .upgrade)
        let owned = try accounts.transactions(bundleID: Self.screenTime, account: "parent", at: StoreSimulatorTests.day(4))
        #expect(owned.map(\.product) == [StoreSimulatorTests.family])
        let replaced = try #require(accounts.updates(bundleID: Self.screenTime, account: "parent", after: 0).first)
        let old = try await Self.verify(replaced.signed)
        #expect(old.transactionId == first.transaction.transactionId && old.isUpgraded == true)
        #expect(old.productId == StoreSimulatorTests.individual)
    }

    @Test("buying the individual plan while the family one is active is a downgrade at renewal; the same plan again is nothing new")
    func downgradeAndRepeat() async throws {
        let accounts = try Self.accounts()
        let family = try accounts.purchase(
            bundleID: Self.screenTime, productID: StoreSimulatorTests.family, account: "parent", appAccountToken: nil, at: StoreSimulatorTests.day(0))
        let again = try accounts.purchase(
            bundleID: Self.screenTime, productID: StoreSimulatorTests.family, account: "parent", appAccountToken: nil, at: StoreSimulatorTests.day(1))
        #expect(again.originalTransactionID == family.originalTransactionID && again.transaction.transactionId == family.transaction.transactionId)
        #expect(again.notifications.isEmpty)
        let downgrade = try accounts.purchase(
            bundleID: Self.screenTime, productID: StoreSimulatorTests.individual, account: "parent", appAccountToken: nil, at: StoreSimulatorTests.day(2))
        #expect(downgrade.originalTransactionID == family.originalTransactionID)
        #expect(downgrade.transaction.productId == StoreSimulatorTests.family)
        let notification = try await StoreSimulatorTests.verifier().verifyNotification(try #require(downgrade.notifications.first).signedPayload)
        #expect(notification.notification.subtype == .downgrade)
        #expect(notification.renewalInfo?.autoRenewProductId == StoreSimulatorTests.individual)
        #expect(try accounts.transactions(bundleID: Self.screenTime, account: "parent", at: StoreSimulatorTests.day(3)).count == 1)
    }

    @Test("buying an owned lifetime product again returns the purchase already made; after a refund it can be bought anew")
    func ownedNonConsumable() async throws {
        let accounts = try Self.accounts()
        let bought = try accounts.purchase(
            bundleID: Self.stories, productID: "com.magicalstories.lifetime", account: "reader", appAccountToken: nil, at: StoreSimulatorTests.day(0))
        let again = try accounts.purchase(
            bundleID: Self.stories, productID: "com.magicalstories.lifetime", account: "reader", appAccountToken: nil, at: StoreSimulatorTests.day(1))
        #expect(again.originalTransactionID == bought.originalTransactionID && again.notifications.isEmpty)
        #expect(try accounts.transactions(bundleID: Self.stories, account: "reader", at: StoreSimulatorTests.day(2)).count == 1)
        _ = try accounts.refund(bundleID: Self.stories, account: "reader", originalTransactionID: bought.originalTransactionID, at: StoreSimulatorTests.day(3))
        let anew = try accounts.purchase(
            bundleID: Self.stories, productID: "com.magicalstories.lifetime", account: "reader", appAccountToken: nil, at: StoreSimulatorTests.day(4))
        #expect(anew.originalTransactionID != bought.originalTransactionID)
    }

    @Test("only the account that bought restores or refunds: another account sees nothing and is refused")
    func ownAccountOnly() throws {
        let accounts = try Self.accounts()
        let bought = try accounts.purchase(
            bundleID: Self.stories, productID: "com.magicalstories.lifetime", account: "reader", appAccountToken: nil, at: StoreSimulatorTests.day(0))
        #expect(try accounts.transactions(bundleID: Self.stories, account: "someone-else", at: StoreSimulatorTests.day(1)).isEmpty)
        #expect(throws: LocalStoreError.self) {
            try accounts.refund(bundleID: Self.stories, account: "someone-else", originalTransactionID: bought.originalTransactionID, at: StoreSimulatorTests.day(1))
        }
        #expect(try accounts.transactions(bundleID: Self.stories, account: "reader", at: StoreSimulatorTests.day(1)).count == 1)
    }
}

extension LocalStoreAccountsTests {
    /// ScreenTimeRewards with a win-back offer on the family plan: a free month back.
    static func winBackAccounts() throws -> LocalStoreAccounts {
        var catalog = Fixtures.exampleCatalog("ScreenTimeRewards")
        let index = try #require(catalog.products.firstIndex { $0.id.rawValue == StoreSimulatorTests.family })
        catalog.products[index].winBackOffers = [
            SubscriptionOffer(kind: .winBack, id: "family.comeback", paymentMode: .payUpFront, period: ISODuration(months: 1), price: nil)
        ]
        let simulator = StoreSimulator(
            catalog: catalog, bundleID: screenTime, signer: try StoreSimulatorTests.authority.get().signer, timeScale: .real)
        return LocalStoreAccounts(stores: [screenTime: simulator])
    }

    @Test("a return to a group the account let expire starts the same chain again (RESUBSCRIBE), at the win-back offer's price when one is redeemed")
    func winBackReturn() async throws {
        let accounts = try Self.winBackAccounts()
        let family = StoreSimulatorTests.family
        let first = try accounts.purchase(bundleID: Self.screenTime, productID: family, account: "parent", appAccountToken: nil, at: StoreSimulatorTests.day(0))
        #expect(throws: LocalStoreError.self, "a win-back offer is for a return, not for an active subscriber") {
            try accounts.purchase(
                bundleID: Self.screenTime, productID: family, account: "parent", appAccountToken: nil, winBackOffer: "family.comeback",
                at: StoreSimulatorTests.day(1))
        }
        #expect(throws: LocalStoreError.self, "only the account's own purchase expires") {
            try accounts.expire(bundleID: Self.screenTime, account: "stranger", originalTransactionID: first.originalTransactionID, at: StoreSimulatorTests.day(2))
        }
        let expiry = try accounts.expire(
            bundleID: Self.screenTime, account: "parent", originalTransactionID: first.originalTransactionID, at: StoreSimulatorTests.day(10))
        let verifier = try StoreSimulatorTests.verifier()
        let expired = try await verifier.verifyNotification(try #require(expiry.last).signedPayload)
        #expect(expired.notification.notificationType == .expired && expired.notification.subtype == .voluntary)
        #expect(throws: LocalStoreError.self, "an offer the product doesn't have") {
            try accounts.purchase(
                bundleID: Self.screenTime, productID: family, account: "parent", appAccountToken: nil, winBackOffer: "not.listed",
                at: StoreSimulatorTests.day(40))
        }
        let back = try accounts.purchase(
            bundleID: Self.screenTime, productID: family, account: "parent", appAccountToken: nil, winBackOffer: "family.comeback",
            at: StoreSimulatorTests.day(40))
        #expect(back.originalTransactionID == first.originalTransactionID)
        let transaction = try await Self.verify(back.signedTransaction)
        #expect(transaction.offerType == .winBackOffer && transaction.offerIdentifier == "family.comeback" && transaction.price == 0)
        let resubscribed = try await verifier.verifyNotification(try #require(back.notifications.first).signedPayload)
        #expect(resubscribed.notification.notificationType == .subscribed && resubscribed.notification.subtype == .resubscribe)
    }
}
