import AsyncHTTPClient
import Crypto
import EntitleCore
@testable import EntitleServer
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HummingbirdTesting
import LocalAppStore
import Logging
import NIOCore
import PostgresNIO
import Testing

/// Webhooks end to end: the server's ledger, the schedule and a real receiver on loopback, driven by
/// the test's clock.
@Suite("Webhooks: publishing and sending")
struct WebhookDeliveryTests {
    static let individual = "com.screentimerewards.individual.monthly"
    static let secret = "whsec_test_secret"

    /// The receiver's check, written apart from the server's: HMAC-SHA256 of "t.body" in hex, for any of the `v1`s.
    static func signed(_ request: WebhookReceiver.Request, secret: String = secret) -> Bool {
        guard let header = request.headers["entitle-signature"] else { return false }
        let parts = header.split(separator: ",").map { $0.split(separator: "=", maxSplits: 1).map(String.init) }
        guard let timestamp = parts.first(where: { $0.first == "t" })?.last else { return false }
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(timestamp).\(request.body)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
        let hex = mac.map { String(format: "%02x", $0) }.joined()
        return parts.contains { $0.first == "v1" && $0.last == hex }
    }

    static func event(_ request: WebhookReceiver.Request) throws -> WebhookEvent {
        try WireJSON.decoder.decode(WebhookEvent.self, from: Data(request.body.utf8))
    }

    /// A pass as the server's worker makes it: publish, then send.
    static func pass(_ service: AppServices, policy: WebhookDeliveryPolicy = WebhookDeliveryPolicy(), holder: String = "test") async throws {
        _ = try await service.webhooks.publishWebhooks(holder: holder)
        _ = try await WebhookSender(client: HTTPClient.shared, policy: policy).deliver(service.webhooks.deliveryTarget, holder: holder)
    }

    static func endpoint(_ url: URL, app: String, at: Date, types: [String] = []) -> WebhookEndpoint {
        WebhookEndpoint(id: "we_test", app: BundleID(app), url: url.absoluteString, eventTypes: types, secrets: [secret], createdAt: at)
    }

    @Test("a subscription's life reaches the endpoint signed, in order, each change once; the last entitlement_changed agrees with GET",
          arguments: StorageEngine.databases)
    func lifecycle(engine: StorageEngine) async throws {
        try await WebhookReceiver.run { url, receiver in
            try await ServerHarness.run(engine: engine) { harness, client in
                let service = harness.service()
                let clock = harness.clock
                try await service.webhooks.webhookStore.addEndpoint(Self.endpoint(url, app: harness.bundleID, at: clock.now))
                var store = harness.localStore()
                let start = ReferenceTime.day(1)
                clock.set(start)
                let purchase = try await harness.buy(client, &store, Self.individual, as: "parent-1", at: start)
                try await Self.pass(service)
                // A renewal a month later (its reminder came due a week before).
                let renewsAt = try #require(store.subscription(purchase.originalTransactionID)?.expiresDate)
                clock.set(renewsAt.addingTimeInterval(-3_600))
                try await harness.deliver(client, try store.renew(purchase.originalTransactionID, at: clock.now))
                try await Self.pass(service)
                // Auto-renew off; the period runs out with no word from Apple; Apple's word arrives late.
                clock.set(renewsAt.addingTimeInterval(3 * 86_400))
                try await harness.deliver(client, try store.setAutoRenew(purchase.originalTransactionID, false, at: clock.now))
                try await Self.pass(service)
                let ends = try #require(store.subscription(purchase.originalTransactionID)?.expiresDate)
                clock.set(ends.addingTimeInterval(3_600))
                try await Self.pass(service)
                try await harness.deliver(client, try store.expire(purchase.originalTransactionID, reason: .voluntary, at: ends))
                try await Self.pass(service)
                // Back, then refunded.
                clock.set(ends.addingTimeInterval(10 * 86_400))
                let back = try store.resubscribe(purchase.originalTransactionID, at: clock.now)
                try await harness.deliver(client, back.notifications)
                try await Self.pass(service)
                clock.set(clock.now.addingTimeInterval(86_400))
                try await harness.deliver(client, try store.refund(purchase.originalTransactionID, at: clock.now))
                try await Self.pass(service)
                try await Self.pass(service)

                let received = receiver.accepted
                #expect(received.allSatisfy { Self.signed($0) }, "every request carries a valid signature")
                #expect(received.allSatisfy { !Self.signed($0, secret: "whsec_another") })
                let events = try received.map(Self.event)
                #expect(events.map(\.type.rawValue) == [
                    "initial_purchase", "entitlement_changed", "renewal_reminder", "renewal", "entitlement_changed", "auto_renew_disabled",
                    "entitlement_changed", "expiry_warning", "expiration", "entitlement_changed",
                ] + Array(repeating: "subscription_grace_reminder", count: 6) + [
                    "entitlement_changed", "renewal", "entitlement_changed", "refund", "entitlement_changed",
                ])
                // Seed 004's warning days after the subscription ended: one reminder a day, each naming the lockout and the days left.
                let warningDays = events.filter { $0.type.rawValue == "subscription_grace_reminder" }
                #expect(Set(warningDays.compactMap(\.data.endsAt)) == [ends.addingTimeInterval(7 * 86_400)])
                #expect(warningDays.compactMap(\.data.daysLeft) == [6, 5, 4, 3, 2, 1])
                #expect(Set(events.map(\.id)).count == events.count, "each change once")
                #expect(events.allSatisfy { $0.app == harness.bundleID && $0.appUserID == "parent-1" && $0.subscriber != nil })
                #expect(events.map(\.occurredAt) == events.map(\.occurredAt).sorted(), "in the order they happened")
                #expect(zip(received, events).allSatisfy { $0.headers["entitle-event-id"] == $1.id && $0.headers["entitle-event-type"] == $1.type.rawValue })
                let expiry = try #require(events.first { $0.type.rawValue == "expiration" })
                #expect(expiry.occurredAt >= ends && expiry.occurredAt < ends.addingTimeInterval(1), "expiry reported at its instant, not when Apple said so")
                // The app's 7 days of access after a subscription ends (seed 004) run out with no event at all,
                // and are reported at their instant, before the resubscription that came later.
                let graceOver = try #require(events.first { $0.type.rawValue == "entitlement_changed" && $0.occurredAt == ends.addingTimeInterval(7 * 86_400) })
                #expect(graceOver.data.entitlementsBefore?.first?.state.rawValue == "app_grace")
                #expect(graceOver.data.entitlementsAfter?.first?.state.rawValue == "expired")
                let reminder = try #require(events.first { $0.type.rawValue == "renewal_reminder" })
                #expect(reminder.data.renewsAt == renewsAt)
                // Auto-renew off: a warning 7 days before the subscription ends, once.
                let warning = try #require(events.first { $0.type.rawValue == "expiry_warning" })
                #expect(warning.data.endsAt == ends && warning.occurredAt == ends.addingTimeInterval(-7 * 86_400))
                let last = try #require(events.last { $0.type.rawValue == "entitlement_changed" })
                #expect(last.data.entitlementsBefore?.first { $0.id == "individual" }?.isActive == true)
                let now = try ServerHarness.decode(
                    SubscriberResponse.self, try await harness.get(client, "/v1/subscribers/parent-1", key: ServerHarness.secretKey))
                #expect(last.data.entitlementsAfter == now.entitlements)
                #expect(last.subscriber?.entitlements == now.entitlements)
                let counts = try await service.webhooks.webhookStore.deliveryCounts()
                #expect(counts == [.delivered: events.count])
            }
        }
    }

    @Test("the receiver down for a day: attempts back off and rest, then everything arrives, each subscriber's in order", arguments: StorageEngine.databases)
    func downForADay(engine: StorageEngine) async throws {
        try await WebhookReceiver.run { url, receiver in
            try await ServerHarness.run(engine: engine) { harness, client in
                let service = harness.service()
                let clock = harness.clock
                clock.set(ReferenceTime.day(1))
                try await service.webhooks.webhookStore.addEndpoint(Self.endpoint(url, app: harness.bundleID, at: clock.now))
                receiver.answer(503)
                var store = harness.localStore()
                var originals: [String] = []
                for user in ["parent-1", "parent-2", "parent-3"] {
                    originals.append(try await harness.buy(client, &store, Self.individual, as: user, at: clock.now).originalTransactionID)
                }
                try await Self.pass(service)
                for hour in 1...24 {
                    clock.set(ReferenceTime.day(1).addingTimeInterval(Double(hour) * 3_600))
                    if hour == 6 {
                        try await harness.deliver(client, try store.setAutoRenew(originals[0], false, at: clock.now))
                    }
                    try await Self.pass(service)
                }
                let whileDown = receiver.requests.count
                #expect(whileDown > 0 && receiver.accepted.isEmpty)
                #expect(whileDown < 60, "a dead endpoint is not hammered: \(whileDown) attempts in a day")
                receiver.answer(200)
                for hour in 25...72 where try await service.webhooks.webhookStore.deliveryCounts()[.pending, default: 0] > 0 {
                    clock.set(ReferenceTime.day(1).addingTimeInterval(Double(hour) * 3_600))
                    try await Self.pass(service)
                }
                let counts = try await service.webhooks.webhookStore.deliveryCounts()
                #expect(counts[.pending] == nil && counts[.failed] == nil)
                let delivered = try receiver.accepted.map(Self.event)
                #expect(delivered.count == counts[.delivered])
                for user in ["parent-1", "parent-2", "parent-3"] {
                    let theirs = delivered.filter { $0.appUserID == user }
                    let written = try await service.webhooks.webhookStore.deliveries(endpointID: nil, appUserID: AppUserID(user), status: nil, limit: 100).reversed().map(\.eventID)
                    #expect(theirs.map(\.id) == Array(written), "\(user)'s events arrive in the order written")
                }
                #expect(delivered.filter { $0.appUserID == "parent-1" }.map(\.type.rawValue) == [
                    "initial_purchase", "entitlement_changed", "auto_renew_disabled", "entitlement_changed",
                ])
                let first = try #require(try await service.webhooks.webhookStore.deliveries(endpointID: nil, appUserID: "parent-2", status: nil, limit: 10).last)
                let attempts = try await service.webhooks.webhookStore.attempts(deliveryID: first.id)
                #expect(attempts.count >= 3 && attempts.last?.status == 200)
                #expect(attempts.dropLast().allSatisfy { $0.status == 503 && $0.error == "HTTP 503" })
            }
        }
    }

    /// A purchase at day 1 published for a new endpoint at `url` (two deliveries, oldest first), with
    /// `receiver` holding its answers from now on.
    static func purchaseHeld(
        _ harness: ServerHarness, _ client: any TestClientProtocol, _ service: AppServices, _ url: URL, _ receiver: WebhookReceiver
    ) async throws -> [WebhookDelivery] {
        harness.clock.set(ReferenceTime.day(1))
        try await service.webhooks.webhookStore.addEndpoint(Self.endpoint(url, app: harness.bundleID, at: harness.clock.now))
        var store = harness.localStore()
        try await harness.buy(client, &store, Self.individual, as: "parent-1", at: harness.clock.now)
        _ = try await service.webhooks.publishWebhooks(holder: "test")
        let written = try await service.webhooks.webhookStore.deliveries(endpointID: nil, appUserID: "parent-1", status: nil, limit: 10).reversed()
        #expect(written.count == 2)
        receiver.hold()
        return Array(written)
    }

    /// Waits until `receiver` has been sent its first request.
    static func firstRequest(_ receiver: WebhookReceiver) async throws {
        for _ in 0..<6_000 where receiver.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        try #require(!receiver.requests.isEmpty, "nothing was sent")
    }

    @Test("an attempt cut short by shutdown counts for neither the delivery nor the endpoint: the next pass sends it, same event ID", arguments: StorageEngine.databases)
    func cutShort(engine: StorageEngine) async throws {
        try await WebhookReceiver.run { url, receiver in
            try await ServerHarness.run(engine: engine) { harness, client in
                let service = harness.service()
                let written = try await Self.purchaseHeld(harness, client, service, url, receiver)
                let sending = Task { try await WebhookSender(client: HTTPClient.shared).deliver(service.webhooks.deliveryTarget, holder: "test") }
                try await Self.firstRequest(receiver)
                // Graceful shutdown cancels the worker's task while the endpoint has not answered.
                sending.cancel()
                _ = await sending.result
                receiver.release()
                let cut = try receiver.requests.map(Self.event)
                #expect(cut.map(\.id) == [written.first?.eventID], "the first of the subscriber's events, unanswered")
                for delivery in written {
                    let now = try #require(try await service.webhooks.webhookStore.delivery(id: delivery.id))
                    #expect(now.status == .pending && now.attempts == 0 && now.lastError == nil)
                    #expect(try await service.webhooks.webhookStore.attempts(deliveryID: delivery.id).isEmpty)
                }
                let endpoint = try #require(try await service.webhooks.webhookStore.endpoint(id: "we_test"))
                #expect(endpoint.consecutiveFailures == 0 && endpoint.pausedUntil == nil)
                // Not resting: the next pass, at the same instant, sends both, the cut one with its event ID.
                _ = try await WebhookSender(client: HTTPClient.shared).deliver(service.webhooks.deliveryTarget, holder: "test")
                #expect(try receiver.accepted.map(Self.event).map(\.id) == written.map(\.eventID))
                for delivery in written {
                    let attempts = try await service.webhooks.webhookStore.attempts(deliveryID: delivery.id)
                    #expect(attempts.map(\.attempt) == [1] && attempts.first?.status == 200)
                }
            }
        }
    }

    @Test("a sending round whose lease another instance took (this one stalled past it) is cut short: the attempt in flight stays due, unrecorded; once nothing is due the lease is released")
    func leaseLost() async throws {
        try await WebhookReceiver.run { url, receiver in
            try await ServerHarness.run { harness, client in
                let service = harness.service(webhookLease: 2)
                let written = try await Self.purchaseHeld(harness, client, service, url, receiver)
                // Attempts time out after a minute: only the lost lease ends this round sooner.
                let policy = WebhookDeliveryPolicy(timeout: .seconds(60))
                let sending = Task { try await WebhookSender(client: HTTPClient.shared, policy: policy).deliver(service.webhooks.deliveryTarget, holder: "test") }
                try await Self.firstRequest(receiver)
                // The holder's lease lapses on the database's clock and another instance takes it.
                harness.clock.set(ReferenceTime.day(1).addingTimeInterval(3))
                #expect(try await service.webhooks.holdWebhookLease(WebhookSender.job, holder: "other") != nil)
                let totals = try await sending.value
                receiver.release()
                #expect(totals.delivered == 0 && totals.failed == 0)
                for delivery in written {
                    let now = try #require(try await service.webhooks.webhookStore.delivery(id: delivery.id))
                    #expect(now.status == .pending && now.attempts == 0)
                }
                // The other instance sends both and releases the lease: the first is free to take it at once.
                _ = try await WebhookSender(client: HTTPClient.shared).deliver(service.webhooks.deliveryTarget, holder: "other")
                #expect(try receiver.accepted.map(Self.event).map(\.id) == written.map(\.eventID))
                #expect(try await service.webhooks.holdWebhookLease(WebhookSender.job, holder: "test") != nil)
            }
        }
    }

    @Test("an endpoint gets only the types it asked for")
    func filteredTypes() async throws {
        try await WebhookReceiver.run { url, receiver in
            try await ServerHarness.run { harness, client in
                let service = harness.service()
                harness.clock.set(ReferenceTime.day(1))
                try await service.webhooks.webhookStore.addEndpoint(Self.endpoint(url, app: harness.bundleID, at: harness.clock.now, types: ["entitlement_changed"]))
                var store = harness.localStore()
                try await harness.buy(client, &store, Self.individual, as: "parent-1", at: harness.clock.now)
                try await Self.pass(service)
                #expect(try receiver.accepted.map(Self.event).map(\.type.rawValue) == ["entitlement_changed"])
            }
        }
    }

    @Test("two instances sharing PostgreSQL, publishing and sending at the same moments: every event once, every reminder once per period")
    func twoInstances() async throws {
        let pki = try TestPKI.shared()
        let clock = TestClock()
        let keys = try APIKeys(secretKeys: [ServerHarness.secretKey], publicKeySecret: "public-key-secret-for-tests")
        let authority = try TestAuthority.shared()
        try await WebhookReceiver.run { url, receiver in
            try await StorageEngine.withPostgresDatabaseConfiguration { configuration in
                try await StorageEngine.withClient(configuration) { first in
                    try await StorageEngine.withClient(configuration) { second in
                        async let openFirst = PostgresLedgerStore.open(client: first)
                        async let openSecond = PostgresLedgerStore.open(client: second)
                        let stores = try await [openFirst, openSecond].map { $0.forApp("com.screentimerewards") }
                        let harnesses = stores.map { store in
                            ServerHarness(
                                pki: pki, apple: AppleFacts(bundleID: "com.screentimerewards"), clock: clock, store: store, keys: keys,
                                bundleID: "com.screentimerewards", authority: authority,
                                catalog: Fixtures.exampleCatalog("ScreenTimeRewards"))
                        }
                        let instances = harnesses.map { $0.service() }
                        clock.set(ReferenceTime.day(1))
                        try await instances[0].webhooks.webhookStore.addEndpoint(Self.endpoint(url, app: "com.screentimerewards", at: clock.now))
                        let app = try await ServerHarness.application(store: stores[0], pki: pki, clock: clock, keys: keys, alsoTrusting: [authority.root])
                        try await app.test(.live) { client in
                            var store = harnesses[0].localStore()
                            let users = (1...5).map { "parent-\($0)" }
                            for user in users { try await harnesses[0].buy(client, &store, Self.individual, as: user, at: clock.now) }
                            for day in 1...45 {
                                clock.set(ReferenceTime.day(1 + Double(day)))
                                try await withThrowingTaskGroup(of: Void.self) { group in
                                    for (index, instance) in instances.enumerated() {
                                        group.addTask { try await Self.pass(instance, holder: "instance-\(index)") }
                                    }
                                    try await group.waitForAll()
                                }
                            }
                            let events = try receiver.accepted.map(Self.event)
                            #expect(Set(events.map(\.id)).count == events.count, "no event twice")
                            #expect(events.filter { $0.type.rawValue == "renewal_reminder" }.count == users.count, "one reminder per subscriber and period")
                            #expect(events.filter { $0.type.rawValue == "expiration" }.count == users.count)
                            for user in users {
                                #expect(events.filter { $0.appUserID == user }.map(\.type.rawValue) == [
                                    "initial_purchase", "entitlement_changed", "renewal_reminder", "expiration", "entitlement_changed",
                                ] + Array(repeating: "subscription_grace_reminder", count: 6) + ["entitlement_changed"], "\(user)")
                            }
                        }
                    }
                }
            }
        }
    }

    @Test("entitle_webhook_publisher says which instance holds the webhooks lease: the first to publish, then the other once it is released")
    func publisherGauge() async throws {
        try await WebhookReceiver.run { url, _ in
            try await ServerHarness.run(engine: .sqlite) { harness, _ in
                let metrics = [ServerMetrics(), ServerMetrics()]
                let instances = metrics.map { metrics in
                    AppServices(
                        store: harness.store, catalog: harness.catalog, verifiers: [], metrics: metrics, now: harness.clock.reading,
                        logger: Logger(label: "entitle.tests.publisher"))
                }
                try await instances[0].webhooks.webhookStore.addEndpoint(Self.endpoint(url, app: harness.bundleID, at: harness.clock.now))
                func holds(_ index: Int) -> Bool? {
                    let text = metrics[index].render()
                    if text.contains(#"entitle_webhook_publisher{app="\#(harness.bundleID)"} 1"#) { return true }
                    if text.contains(#"entitle_webhook_publisher{app="\#(harness.bundleID)"} 0"#) { return false }
                    return nil
                }
                _ = try await instances[0].webhooks.publishWebhooks(holder: "instance-0")
                _ = try await instances[1].webhooks.publishWebhooks(holder: "instance-1")
                #expect(holds(0) == true)
                #expect(holds(1) == false)
                await instances[0].webhooks.releaseWebhookLeases()
                _ = try await instances[1].webhooks.publishWebhooks(holder: "instance-1")
                #expect(holds(0) == false)
                #expect(holds(1) == true)
            }
        }
    }

    @Test("every event type reaches a receiver on loopback, signed", arguments: [StorageEngine.sqlite])
    func everyType(engine: StorageEngine) async throws {
        try await WebhookReceiver.run { url, receiver in
            try await ServerHarness.run(engine: engine, restorePolicy: .transferToNewest) { harness, client in
                let service = harness.service()
                let clock = harness.clock
                clock.set(ReferenceTime.day(1))
                try await service.webhooks.webhookStore.addEndpoint(Self.endpoint(url, app: harness.bundleID, at: clock.now))
                var store = harness.localStore()
                func pass() async throws { try await Self.pass(service) }
                func at(_ date: Date) async throws {
                    clock.set(date)
                    try await pass()
                }
                // The app-managed trial of two parents; one converts, the other's runs out into warnings and lockout.
                for user in ["parent-1", "kid-parent"] {
                    try await harness.post(client, "/v1/subscribers/\(user)/trial", key: harness.publicKey(user), body: ByteBuffer())
                }
                try await at(ReferenceTime.day(3))
                let purchase = try await harness.buy(client, &store, Self.individual, as: "parent-1", at: clock.now)
                let original = purchase.originalTransactionID
                // Another parent takes the StoreKit free trial and turns auto-renew off at once.
                let trial = try await harness.buy(client, &store, Self.individual, as: "trial-parent", at: clock.now, introductoryOffer: true)
                // And another subscribes and turns auto-renew off at once: warned a week before the month ends.
                let lapsing = try await harness.buy(client, &store, Self.individual, as: "lapsing-parent", at: clock.now)
                try await at(clock.now.addingTimeInterval(60))
                try await harness.deliver(client, try store.setAutoRenew(trial.originalTransactionID, false, at: clock.now))
                try await harness.deliver(client, try store.setAutoRenew(lapsing.originalTransactionID, false, at: clock.now))
                try await pass()
                // Renewed (after its reminder), upgraded, auto-renew off and on again, shared with the family.
                let renewsAt = try #require(store.subscription(original)?.expiresDate)
                try await at(renewsAt.addingTimeInterval(-3_600))
                try await harness.deliver(client, try store.renew(original, at: clock.now))
                try await at(clock.now.addingTimeInterval(86_400))
                try await harness.deliver(client, try store.changeProduct(original, to: "com.screentimerewards.family.monthly", at: clock.now))
                // Two child devices on the Family plan: paused when access lapses below them, resumed when it's back.
                for device in ["ipad-1", "ipad-2"] {
                    #expect(try await service.items.register(appUserID: "parent-1", limit: "childDevices", itemID: device, name: nil).registered)
                }
                try await at(clock.now.addingTimeInterval(3_600))
                try await harness.deliver(client, try store.setAutoRenew(original, false, at: clock.now))
                try await at(clock.now.addingTimeInterval(3_600))
                try await harness.deliver(client, try store.setAutoRenew(original, true, at: clock.now))
                try await at(clock.now.addingTimeInterval(3_600))
                let shared = try store.shareWithFamily(original, at: clock.now)
                try await harness.submit(client, "member-1", signed: shared.signedTransaction)
                try await pass()
                // A renewal fails into the grace period, which ends in billing retry, which gives up.
                let expires = try #require(store.subscription(original)?.expiresDate)
                try await at(expires)
                try await harness.deliver(client, try store.failRenewal(original, at: clock.now))
                try await pass()
                let graceEnds = try #require(store.subscription(original)?.gracePeriodExpiresDate)
                try await at(graceEnds)
                try await harness.deliver(client, try store.expireGracePeriod(original, at: clock.now))
                try await at(clock.now.addingTimeInterval(86_400))
                try await harness.deliver(client, try store.expire(original, reason: .billingRetry, at: clock.now))
                try await pass()
                // A parent withdraws consent to the app (Apple's RESCIND_CONSENT names the customer's app transaction).
                let consent = ConsentNotifier(signer: harness.authority.signer, bundleID: harness.bundleID)
                try await harness.deliver(client, [try consent.rescindConsent(of: try #require(store.subscription(original)), at: clock.now)])
                try await pass()
                // Back, refunded, the refund reversed; then restored onto another account (a transfer).
                try await at(clock.now.addingTimeInterval(86_400))
                try await harness.deliver(client, try store.resubscribe(original, at: clock.now).notifications)
                try await at(clock.now.addingTimeInterval(86_400))
                try await harness.deliver(client, try store.refund(original, at: clock.now))
                try await at(clock.now.addingTimeInterval(86_400))
                try await harness.deliver(client, try store.reverseRefund(original, at: clock.now))
                try await at(clock.now.addingTimeInterval(3_600))
                try await harness.submit(client, "parent-2", signed: try store.currentTransaction(original, at: clock.now))
                try await pass()
                // And onto two more: the third other account's claim flags the purchase's holder, and the account it moves to (anomaly_flagged).
                for user in ["parent-3", "parent-4"] {
                    try await at(clock.now.addingTimeInterval(3_600))
                    try await harness.submit(client, user, signed: try store.currentTransaction(original, at: clock.now))
                }
                try await pass()
                _ = try await service.webhooks.sendTestWebhook(endpointID: "we_test")
                // A customer deletes their account (subscriber_deleted).
                _ = try await harness.delete(client, "/v1/subscribers/parent-1", key: harness.publicKey("parent-1"))
                try await pass()

                let events = try receiver.accepted.map(Self.event)
                #expect(receiver.accepted.allSatisfy { Self.signed($0) })
                let missing = Set(WebhookEventType.allCases.map(\.rawValue)).subtracting(events.map(\.type.rawValue)).subtracting(["quota_exhausted"])
                #expect(missing.isEmpty, "never sent: \(missing.sorted())")
                #expect(events.filter { $0.type.rawValue == "transfer" }.map(\.appUserID).sorted() == [
                    "parent-1", "parent-2", "parent-2", "parent-3", "parent-3", "parent-4",
                ])
                let flagged = events.filter { $0.type.rawValue == "anomaly_flagged" }
                let holderFacts = try await harness.store.projection(appUserID: "parent-4")
                #expect(holderFacts?.purchases[OriginalTransactionID(original)]?.claims?.keys.sorted() == ["parent-2", "parent-3", "parent-4"])
                #expect(try await harness.subscriber(client, "parent-4").anomalies.map(\.kind) == ["shared_purchase"])
                // The holder when the third claim came (its flag stands on its timeline), and the account it moved to.
                #expect(flagged.map(\.appUserID).sorted() == ["parent-3", "parent-4"])
                #expect(flagged.first?.data.anomaly?.kind == "shared_purchase")
                #expect(events.contains { $0.type.rawValue == "family_sharing" && $0.appUserID == "member-1" })
                // The 7 days of grace: the warning, a reminder each following day, then lockout.
                #expect(events.filter { $0.appUserID == "kid-parent" }.map(\.type.rawValue).filter { $0.hasPrefix("app_trial") } == [
                    "app_trial_started", "app_trial_ending_soon", "app_trial_warning",
                ] + Array(repeating: "app_trial_grace_reminder", count: 6) + ["app_trial_lockout"])
                let trialEndingSoon = try #require(events.first { $0.type.rawValue == "app_trial_ending_soon" })
                #expect(trialEndingSoon.data.daysLeft == 3 && trialEndingSoon.data.endsAt != nil)
                let graceDays = events.filter { $0.type.rawValue == "app_trial_grace_reminder" }
                #expect(Set(graceDays.compactMap(\.data.endsAt)).count == 1, "each names the lockout")
                // A StoreKit free trial whose auto-renew was turned off: reminded 2 days before it lapses.
                let trialEnding = try #require(events.first { $0.type.rawValue == "trial_ending_soon" })
                #expect(trialEnding.appUserID == "trial-parent" && trialEnding.data.willRenew == false)
            }
            // Quotas: Epilogue's free tier allows 2 conversations a month.
            try await ServerHarness.run(example: "Epilogue", bundleID: "com.epilogue.app") { harness, client in
                let service = harness.service()
                harness.clock.set(ReferenceTime.day(1))
                try await service.webhooks.webhookStore.addEndpoint(Self.endpoint(url, app: harness.bundleID, at: harness.clock.now, types: ["quota_exhausted"]))
                for use in ["a", "b"] {
                    try await harness.post(
                        client, "/v1/subscribers/reader/usage", key: harness.publicKey("reader"),
                        body: ServerHarness.json(RecordUsageRequest(feature: "conversations", idempotencyKey: use)))
                }
                try await Self.pass(service)
                let quota = try #require(try receiver.accepted.map(Self.event).last)
                #expect(quota.type.rawValue == "quota_exhausted" && quota.data.feature == "conversations" && quota.app == "com.epilogue.app")
            }
        }
    }
}
