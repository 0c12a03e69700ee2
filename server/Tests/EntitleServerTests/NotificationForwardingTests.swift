import AppStoreModels
import AsyncHTTPClient
import EntitleCore
@testable import EntitleServer
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import LocalAppStore
import Testing

/// `--forward-url`: every notification Entitle accepts, sent on to the provider an app is leaving as Apple
/// sent it, by a consumer of its own — Apple's answer never waits for it — retried, and kept for replay.
@Suite("Notification forwarding")
struct NotificationForwardingTests {
    static func pass(_ service: AppServices, policy: WebhookDeliveryPolicy = WebhookDeliveryPolicy()) async throws {
        _ = try await service.webhooks.publishWebhooks(holder: "test")
        _ = try await service.webhooks.publishForwards(holder: "test")
        _ = try await WebhookSender(client: HTTPClient.shared, policy: policy).deliver(service.webhooks.deliveryTarget, holder: "test")
    }

    @Test("a failing target: Apple is answered at once, each notification arrives byte for byte once the target recovers; Entitle's own endpoints get none",
          arguments: StorageEngine.databases)
    func failingTarget(engine: StorageEngine) async throws {
        try await WebhookReceiver.run { url, receiver in
            try await WebhookReceiver.run { webhookURL, webhooks in
                try await ServerHarness.run(engine: engine) { harness, client in
                    let service = harness.service()
                    let clock = harness.clock
                    clock.set(ReferenceTime.day(1))
                    try await StaticWebhook.register(
                        [.forward(app: nil, url: url.absoluteString), StaticWebhook(app: nil, url: webhookURL.absoluteString, secret: String(repeating: "s", count: 24))],
                        in: service.webhooks.webhookStore, at: clock.now)
                    receiver.answer(503)
                    var store = harness.localStore()
                    var posted: [String] = []
                    for _ in 0..<3 {
                        clock.set(clock.now.addingTimeInterval(60))
                        let bought = try store.purchase("com.screentimerewards.family.monthly", at: clock.now, introductoryOffer: false)
                        // Apple's notification, answered 200 while the target is down: nothing was sent yet.
                        for notification in bought.notifications {
                            try await harness.postNotification(client, notification.signedPayload)
                            posted.append(notification.signedPayload)
                        }
                    }
                    #expect(receiver.requests.isEmpty, "Apple's answer sends nothing on")
                    try await Self.pass(service)
                    #expect(!receiver.requests.isEmpty && receiver.accepted.isEmpty)
                    receiver.answer(200)
                    for hour in 1...48 where try await service.webhooks.webhookStore.deliveries(
                        endpointID: StaticWebhook.endpointID(url: url.absoluteString, app: BundleID(harness.bundleID), forwards: true),
                        appUserID: nil, status: .pending, limit: 10).count > 0 {
                        clock.set(ReferenceTime.day(1).addingTimeInterval(Double(hour) * 3_600))
                        try await Self.pass(service)
                    }
                    let bodies = receiver.accepted.map(\.body)
                    #expect(bodies == posted.map { #"{"signedPayload":""# + $0 + #""}"# })
                    #expect(receiver.accepted.allSatisfy { $0.headers["entitle-event-type"] == "app_store_notification" && $0.headers["entitle-signature"] == nil })
                    #expect(Set(receiver.accepted.compactMap { $0.headers["entitle-event-id"] }).count == posted.count)
                    // Entitle's own endpoint (every type) gets none of Apple's notifications.
                    let ownID = StaticWebhook.endpointID(url: webhookURL.absoluteString, app: BundleID(harness.bundleID))
                    let own = try await service.webhooks.webhookStore.deliveries(endpointID: ownID, appUserID: nil, status: nil, limit: 100)
                    #expect(own.allSatisfy { $0.eventType != "app_store_notification" })
                    #expect(webhooks.requests.allSatisfy { $0.headers["entitle-event-type"] != "app_store_notification" })
                    // Apple sending one again (a retry): no second delivery.
                    try await harness.postNotification(client, posted[0])
                    try await Self.pass(service)
                    #expect(receiver.accepted.count == posted.count)
                }
            }
        }
    }

    @Test("a target that never recovers: its deliveries end failed (the dead letters), and a replay sends them once it answers")
    func deadLetters() async throws {
        try await WebhookReceiver.run { url, receiver in
            try await ServerHarness.run { harness, client in
                let service = harness.service()
                harness.clock.set(ReferenceTime.day(1))
                try await StaticWebhook.register([.forward(app: nil, url: url.absoluteString)], in: service.webhooks.webhookStore, at: harness.clock.now)
                let endpointID = StaticWebhook.endpointID(url: url.absoluteString, app: BundleID(harness.bundleID), forwards: true)
                receiver.answer(500)
                var store = harness.localStore()
                let bought = try store.purchase("com.screentimerewards.individual.monthly", at: harness.clock.now, introductoryOffer: false)
                try await harness.deliver(client, bought.notifications)
                let policy = WebhookDeliveryPolicy(retryDelays: [30, 60], jitter: 0)
                for minute in 0...20 {
                    harness.clock.set(ReferenceTime.day(1).addingTimeInterval(Double(minute) * 60))
                    try await Self.pass(service, policy: policy)
                    if try await service.webhooks.webhookStore.deliveries(endpointID: endpointID, appUserID: nil, status: .pending, limit: 1).isEmpty { break }
                }
                let failed = try await service.webhooks.webhookStore.deliveries(endpointID: endpointID, appUserID: nil, status: .failed, limit: 10)
                #expect(failed.count == bought.notifications.count && receiver.accepted.isEmpty)
                receiver.answer(200)
                #expect(try await service.webhooks.webhookStore.replay(endpointID: endpointID, ids: nil, at: harness.clock.now) == failed.count)
                try await Self.pass(service, policy: policy)
                #expect(receiver.accepted.map(\.body) == bought.notifications.map { #"{"signedPayload":""# + $0.signedPayload + #""}"# })
            }
        }
    }
}
