import EntitleCore
@testable import EntitleServer
import EntitleStorage
import EntitleTestSupport
import Foundation
import Logging
import Testing

/// The webhook service on the in-memory ledger: two instances sharing one database, no HTTP.
@Suite("WebhookService")
struct WebhookServiceTests {
    static func instance(_ database: MemoryDatabase, _ clock: TestClock, lease: TimeInterval) -> WebhookService {
        AppServices(
            store: MemoryLedgerStore(database: database, app: "com.screentimerewards"), catalog: Fixtures.exampleCatalog("ScreenTimeRewards"),
            verifiers: [], now: clock.reading, logger: Logger(label: "entitle.tests.webhook-service"), webhookLease: lease
        ).webhooks
    }

    @Test("an instance that stops renewing its publishing lease (it crashed) is taken over once the configured lease lapses, not before",
          arguments: [2.0, WebhookService.defaultLease])
    func takeover(lease: TimeInterval) async throws {
        let database = MemoryDatabase()
        let clock = TestClock(ReferenceTime.day(0))
        let crashed = Self.instance(database, clock, lease: lease)
        let next = Self.instance(database, clock, lease: lease)
        #expect(try await crashed.holdWebhookLease(WebhookService.webhookJob, holder: "crashed") != nil)
        clock.set(ReferenceTime.day(0).addingTimeInterval(lease - 0.5))
        #expect(try await next.holdWebhookLease(WebhookService.webhookJob, holder: "next") == nil, "still the crashed instance's")
        clock.set(ReferenceTime.day(0).addingTimeInterval(lease + 0.5))
        #expect(try await next.holdWebhookLease(WebhookService.webhookJob, holder: "next") != nil, "lapsed: taken over")
    }

    @Test("a status read while another instance publishes never says all is delivered while a delivery it wrote is pending")
    func statusWhilePublishing() async throws {
        let clock = TestClock(ReferenceTime.day(0))
        let services = SubscriberServiceTests.services(clock)
        let webhooks = services.webhooks
        _ = try await webhooks.addWebhookEndpoint(url: "http://127.0.0.1:9/hooks", eventTypes: [], description: nil, secret: nil)
        clock.set(ReferenceTime.day(0).addingTimeInterval(1))
        // Epilogue's free tier used up: quota_exhausted, not yet published.
        for key in ["a", "b"] {
            _ = try await services.subscribers.recordUsage(appUserID: "reader", feature: SubscriberServiceTests.feature, amount: 1, idempotencyKey: key)
        }
        let before = try await webhooks.webhookStatus()
        #expect(before.unpublished > 0 && (before.counts[.pending] ?? 0) == 0)

        // The other instance's step of publishing lands between the status's two reads.
        let reader = WebhookService(
            context: webhooks.context, events: webhooks.events, projections: webhooks.projections, identity: webhooks.identity,
            cursors: webhooks.cursors, feed: webhooks.feed, leases: webhooks.leases,
            webhookStore: InterleavingWebhookStore(webhooks.webhookStore) { _ = try? await webhooks.publishWebhooks(holder: "publisher") })
        let status = try await reader.webhookStatus()
        let after = try await webhooks.webhookStatus()
        #expect(after.unpublished == 0 && (after.counts[.pending] ?? 0) > 0, "the step published")
        #expect(status.unpublished > 0 || (status.counts[.pending] ?? 0) > 0, "not settled: \(status.counts), \(status.unpublished) unpublished")
    }
}
