import AppStoreModels
import EntitleCore
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import LocalAppStore
import Testing

/// Seed 004's test cases (ScreenTimeRewards) played through the real server with the local App
/// Store's signed data: the same verifier, ledger and API as Apple's data would meet.
@Suite("Seed 004 scenarios (ScreenTimeRewards)")
struct Seed004ScenarioTests {
    static let family = "com.screentimerewards.family.monthly"
    static let individual = "com.screentimerewards.individual.monthly"
    static func day(_ n: Double) -> Date { ReferenceTime.day(n) }

    static func access(_ harness: ServerHarness, _ client: any TestClientProtocol, _ user: String, _ feature: String, usage: Int = 1) async throws -> AccessResponse {
        try ServerHarness.decode(AccessResponse.self, try await harness.get(
            client, "/v1/subscribers/\(user)/access/\(feature)?usage=\(usage)", key: harness.publicKey(user)))
    }

    @Test("TC1: the app-managed trial starts at first launch, lasts 30 days, then 7 days of grace, then read-only lockout")
    func tc1TrialGraceLockout() async throws {
        try await ServerHarness.run { harness, client in
            let started = try ServerHarness.decode(SubscriberResponse.self, try await harness.post(
                client, "/v1/subscribers/parent-1/trial", key: harness.publicKey("parent-1"), body: ServerHarness.json([String: String]())))
            #expect(started.appTrial.phase == "active")
            #expect(started.appTrial.endsAt == Self.day(30))
            #expect(started.appTrial.daysLeft == 30)
            // What an app without a backend schedules: the trial's end 3 days ahead, then each warning day.
            #expect(started.reminders.map(\.kind) == ["app_trial_ending"] + Array(repeating: "app_trial_grace", count: 6))
            let ending = try #require(started.reminders.first), lastWarning = try #require(started.reminders.last)
            #expect(ending.dueAt == Self.day(27) && ending.endsAt == Self.day(30) && ending.daysLeft == 3)
            #expect(lastWarning.dueAt == Self.day(36) && lastWarning.endsAt == Self.day(37) && lastWarning.daysLeft == 1)
            #expect(try await Self.access(harness, client, "parent-1", "challenges.create").outcome == "allowed")
            harness.clock.set(Self.day(7.5))
            #expect(try await harness.subscriber(client, "parent-1").appTrial.daysLeft == 23, "\"23 days left in trial\"")

            harness.clock.set(Self.day(31))
            let grace = try await harness.subscriber(client, "parent-1")
            #expect(grace.appTrial.phase == "grace")
            #expect(grace.appTrial.lockoutAt == Self.day(37))
            #expect(grace.appTrial.daysLeft == 6)
            #expect(grace.reminders.map(\.dueAt) == (32...36).map { Self.day(Double($0)) })
            let warned = try await Self.access(harness, client, "parent-1", "challenges.create")
            #expect(warned.outcome == "allowed_with_warning")
            #expect(warned.paywall == "convert_trial")

            harness.clock.set(Self.day(39))
            #expect(try await harness.subscriber(client, "parent-1").appTrial.phase == "lockout")
            let locked = try await Self.access(harness, client, "parent-1", "challenges.create")
            #expect(locked.outcome == "denied")
            #expect(locked.reason?.code == "trial_expired")
            #expect(locked.paywall == "convert_trial")
            #expect(try await Self.access(harness, client, "parent-1", "history.view").outcome == "allowed")
        }
    }

    @Test("support extends the app-managed trial: a locked-out parent gets the trial back for the days added, twice the same request once; bad requests refused")
    func trialExtension() async throws {
        try await ServerHarness.run { harness, client in
            try await harness.post(client, "/v1/subscribers/parent-9/trial", key: harness.publicKey("parent-9"), body: ServerHarness.json([String: String]()))
            harness.clock.set(Self.day(39))
            #expect(try await harness.subscriber(client, "parent-9").appTrial.phase == "lockout")
            func extend(_ days: Int, _ user: String = "parent-9", expect status: HTTPResponse.Status = .ok) async throws -> TestResponse {
                try await harness.post(
                    client, "/v1/subscribers/\(user)/trial/extensions", key: ServerHarness.secretKey,
                    body: ServerHarness.json(AppTrialExtensionRequest(days: days, reason: "support ticket 42")), expect: status)
            }
            let extended = try ServerHarness.decode(SubscriberResponse.self, try await extend(14))
            // 30 days + 14: the trial now ends on day 44, its grace on day 51.
            #expect(extended.appTrial.phase == "active" && extended.appTrial.endsAt == Self.day(44) && extended.appTrial.lockoutAt == Self.day(51))
            #expect(extended.appTrial.daysLeft == 5)
            #expect(try await Self.access(harness, client, "parent-9", "challenges.create").outcome == "allowed")
            #expect(extended.reminders.first?.kind == "app_trial_ending" && extended.reminders.first?.dueAt == Self.day(41))

            for days in [0, 367] { #expect(ServerHarness.errorCode(try await extend(days, expect: .badRequest)) == "request.invalid") }
            #expect(ServerHarness.errorCode(try await extend(360, expect: .badRequest)) == "request.invalid", "366 days at most together")
            #expect(ServerHarness.errorCode(try await extend(3, "never-launched", expect: .badRequest)) == "request.invalid")
            try await harness.post(
                client, "/v1/subscribers/parent-9/trial/extensions", key: harness.publicKey("parent-9"),
                body: ServerHarness.json(AppTrialExtensionRequest(days: 30)), expect: .forbidden)
            #expect(try await harness.subscriber(client, "parent-9").appTrial.endsAt == Self.day(44), "refusals changed nothing")
        }
    }

    @Test("TC2: a purchase during the trial (with the StoreKit free trial) makes the subscription the source of access")
    func tc2Purchase() async throws {
        try await ServerHarness.run { harness, client in
            var store = harness.localStore()
            try await harness.post(client, "/v1/subscribers/parent-2/trial", key: harness.publicKey("parent-2"), body: ServerHarness.json([String: String]()))
            harness.clock.set(Self.day(10))
            let purchase = try store.purchase(Self.individual, appAccountToken: UUID(), at: Self.day(10))
            #expect(purchase.transaction.offerType == .introductoryOffer)
            #expect(purchase.transaction.offerDiscountType == .freeTrial)
            try await harness.submit(client, "parent-2", signed: purchase.signedTransaction)
            try await harness.deliver(client, purchase.notifications)
            let subscriber = try await harness.subscriber(client, "parent-2")
            #expect(subscriber.subscriptions.first?.state == "trial")
            #expect(subscriber.entitlements.filter(\.isActive).map(\.id) == ["individual"])
            #expect(subscriber.appTrial.phase == "superseded")

            let expires = try #require(store.subscription(purchase.originalTransactionID)?.expiresDate)
            try await harness.deliver(client, store.renew(purchase.originalTransactionID))
            harness.clock.set(expires + 86_400)
            let paid = try await harness.subscriber(client, "parent-2")
            #expect(paid.subscriptions.first?.state == "active")
            #expect(paid.subscriptions.first?.periodType == "normal")
        }
    }

    @Test("TC3: a fresh install (new appUserID) restoring the same purchase gets it under the restore policy",
          arguments: [RestorePolicy.transferToNewest, .keepWithOriginal])
    func tc3Restore(policy: RestorePolicy) async throws {
        try await ServerHarness.run(restorePolicy: policy) { harness, client in
            var store = harness.localStore()
            let purchase = try await harness.buy(client, &store, Self.individual, as: "install-1", at: Self.day(0))
            harness.clock.set(Self.day(5))
            try await harness.post(client, "/v1/subscribers/install-2/trial", key: harness.publicKey("install-2"), body: ServerHarness.json([String: String]()))
            let restored = try store.currentTransaction(purchase.originalTransactionID, at: Self.day(5))
            switch policy {
            case .transferToNewest:
                try await harness.submit(client, "install-2", signed: restored)
                #expect(try await harness.subscriber(client, "install-2").entitlements.filter(\.isActive).map(\.id) == ["individual"])
                #expect(try await harness.subscriber(client, "install-1").entitlements.filter(\.isActive).isEmpty)
            case .keepWithOriginal:
                let refused = try await harness.submit(client, "install-2", signed: restored, expect: .conflict)
                #expect(ServerHarness.errorCode(refused) == "purchase.ownedByAnotherSubscriber")
                #expect(try await harness.subscriber(client, "install-1").entitlements.filter(\.isActive).map(\.id) == ["individual"])
            }
        }
    }

    @Test("TC4: Individual pairs one child device; upgrading to Family pairs a second at once")
    func tc4Upgrade() async throws {
        try await ServerHarness.run { harness, client in
            var store = harness.localStore()
            let purchase = try await harness.buy(client, &store, Self.individual, as: "parent-4", at: Self.day(0))
            #expect(try await Self.access(harness, client, "parent-4", "childDevices", usage: 1).outcome == "allowed")
            let second = try await Self.access(harness, client, "parent-4", "childDevices", usage: 2)
            #expect(second.outcome == "denied")
            #expect(second.paywall == "upgrade")
            #expect(second.reason?.maximum == 1)

            harness.clock.set(Self.day(3))
            let upgrade = try store.changeProduct(purchase.originalTransactionID, to: Self.family, at: Self.day(3))
            #expect(upgrade.map(\.subtype) == [.upgrade])
            try await harness.deliver(client, upgrade)
            #expect(try await Self.access(harness, client, "parent-4", "childDevices", usage: 2).outcome == "allowed")
            #expect(try await harness.subscriber(client, "parent-4").entitlements.filter(\.isActive).map(\.id) == ["family"])
        }
    }

    @Test("TC5: the subscription expires, the 7-day grace begins, and renewing returns it to active")
    func tc5ExpirationAndRenewal() async throws {
        try await ServerHarness.run { harness, client in
            var store = harness.localStore()
            let purchase = try await harness.buy(client, &store, Self.individual, as: "parent-5", at: Self.day(0))
            let original = purchase.originalTransactionID
            try await harness.deliver(client, store.setAutoRenew(original, false, at: Self.day(20)))
            try await harness.deliver(client, store.expire(original, reason: .voluntary))

            harness.clock.set(Self.day(32))
            let expired = try await harness.subscriber(client, "parent-5")
            #expect(expired.subscriptions.first?.state == "expired")
            #expect(expired.subscriptions.first?.expirationReason == "voluntary")
            let grace = try #require(expired.entitlements.first { $0.source == "expiry_grace" })
            #expect(grace.id == "individual")
            #expect(grace.state == "app_grace")
            #expect(grace.expiresAt == Self.day(38))
            // The warning days: how many are left, and a daily reminder for each after the first.
            #expect(expired.expiryGrace?.daysLeft == 6)
            #expect(expired.expiryGrace?.lockoutAt == Self.day(38))
            #expect(expired.reminders.map(\.kind) == Array(repeating: "subscription_grace", count: 5))
            #expect(expired.reminders.map(\.daysLeft) == [5, 4, 3, 2, 1])
            #expect(expired.subscriptions.first?.latestTransactionID == purchase.transaction.transactionId)
            #expect(expired.lastVerifiedAt != nil)
            #expect(try await Self.access(harness, client, "parent-5", "challenges.create").outcome == "allowed_with_warning")

            let back = try store.resubscribe(original, at: Self.day(33))
            #expect(back.notifications.map(\.subtype) == [.resubscribe])
            try await harness.deliver(client, back.notifications)
            harness.clock.set(Self.day(34))
            let active = try await harness.subscriber(client, "parent-5")
            #expect(active.subscriptions.first?.state == "active")
            #expect(try await Self.access(harness, client, "parent-5", "challenges.create").outcome == "allowed")
        }
    }

    @Test("TC6 (server half): every answer carries the server time, and entitlements carry what a client needs to cache them safely")
    func tc6CacheableAnswers() async throws {
        try await ServerHarness.run { harness, client in
            var store = harness.localStore()
            let purchase = try await harness.buy(client, &store, Self.individual, as: "parent-6", at: Self.day(0))
            harness.clock.set(Self.day(2))
            let subscriber = try await harness.subscriber(client, "parent-6")
            let entitlement = try #require(subscriber.entitlements.first { $0.id == "individual" })
            #expect(subscriber.serverTime == Self.day(2))
            #expect(entitlement.isActive)
            #expect(entitlement.expiresAt == store.subscription(purchase.originalTransactionID)?.expiresDate)
            #expect(entitlement.willRenew)
            #expect(entitlement.limits["childDevices"] == 1)
            #expect(try await Self.access(harness, client, "parent-6", "challenges.create").serverTime == Self.day(2))
        }
    }
}
