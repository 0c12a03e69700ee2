import AsyncHTTPClient
import EntitleTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import LocalAppStore
import Logging
import NIOConcurrencyHelpers
import Testing

@Suite("NotificationDelivery")
struct NotificationDeliveryTests {
    /// Attempts per request body, as the webhook saw them.
    final class Attempts: Sendable {
        private let counts = NIOLockedValueBox<[String: Int]>([:])

        func record(_ body: String) -> Int {
            counts.withLockedValue { counts in
                counts[body, default: 0] += 1
                return counts[body]!
            }
        }

        var perNotification: [Int] { counts.withLockedValue { Array($0.values) } }
    }

    /// A webhook on loopback that fails the first `failures` attempts of each notification with 503.
    static func withWebhook(failures: Int, _ body: @Sendable (String, Attempts) async throws -> Void) async throws {
        let attempts = Attempts()
        let router = Router()
        router.post("/notifications") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            let payload = String(buffer: body)
            let count = attempts.record(payload)
            return Response(status: count <= failures ? .serviceUnavailable : .ok)
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await body("http://127.0.0.1:\(port)/notifications", attempts)
        }
    }

    static func notifications(_ count: Int) throws -> [SignedNotification] {
        let store = StoreSimulator(
            catalog: Fixtures.exampleCatalog("ScreenTimeRewards"), bundleID: "com.screentimerewards",
            signer: try LocalCertificateAuthority.create(now: ReferenceTime.start).signer)
        return try (0..<count).map { try store.testNotification(at: ReferenceTime.day(Double($0))) }
    }

    @Test("a non-2xx answer is retried with back-off until acknowledged")
    func retries() async throws {
        try await Self.withWebhook(failures: 2) { url, attempts in
            let delivery = NotificationDelivery(
                url: url, client: .shared, options: DeliveryOptions(retryDelays: [.milliseconds(1), .milliseconds(2), .milliseconds(4)]),
                logger: Logger(label: "entitle.tests.delivery"))
            let report = try await delivery.deliver(try Self.notifications(3))
            #expect(report.delivered == 3)
            #expect(report.retries == 6)
            #expect(attempts.perNotification == [3, 3, 3])
        }
    }

    @Test("when the retries run out the notification is reported undelivered, with localStore.deliveryFailed")
    func givesUp() async throws {
        try await Self.withWebhook(failures: 10) { url, attempts in
            let delivery = NotificationDelivery(
                url: url, client: .shared, options: DeliveryOptions(retryDelays: [.milliseconds(1), .milliseconds(1)]),
                logger: Logger(label: "entitle.tests.delivery"))
            await #expect(throws: LocalStoreError(.deliveryFailed, "")) { _ = try await delivery.deliver(try Self.notifications(1)) }
            #expect(attempts.perNotification == [3])
        }
    }

    @Test("shuffled and duplicated: every notification is delivered, some twice, in another order")
    func shuffledAndDuplicated() async throws {
        try await Self.withWebhook(failures: 0) { url, attempts in
            let delivery = NotificationDelivery(
                url: url, client: .shared, options: DeliveryOptions(shuffle: true, duplicateProbability: 1, seed: 7),
                logger: Logger(label: "entitle.tests.delivery"))
            let report = try await delivery.deliver(try Self.notifications(5))
            #expect(report.delivered == 5)
            #expect(report.duplicates == 5)
            #expect(attempts.perNotification == [2, 2, 2, 2, 2])
        }
    }
}
