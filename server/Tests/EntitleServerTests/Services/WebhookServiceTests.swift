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
}
