import AsyncHTTPClient
import EntitleCore
import EntitleServer
import EntitleStorage
import Foundation
import Logging
import NIOCore

/// Webhook delivery alone: 10,000 deliveries of 1,000 subscribers sent by ``WebhookSender`` (signed,
/// in order per subscriber, every attempt recorded) to a receiver on loopback, beside the reference
/// measured in the same run: the same bodies posted by a bare AsyncHTTPClient with the same
/// concurrency, unsigned and unrecorded.
enum WebhookThroughput {
    static let deliveries = 10_000
    static let subscribers = 1_000

    static func measure(store root: any LedgerStore, receiver: URL, logger: Logger) async throws {
        let store = root.forApp("com.screentimerewards")
        let webhooks = store.webhookStore()
        let start = Date()
        try await webhooks.addEndpoint(WebhookEndpoint(
            id: "we_load", app: store.app, url: receiver.absoluteString, eventTypes: [], secrets: ["whsec_load_test_secret_01"], createdAt: start))
        let body = String(repeating: "x", count: 2_000)
        let batch = (0..<deliveries).map { index in
            WebhookDelivery(
                endpointID: "we_load", eventID: "evt_\(index)", eventType: "renewal", appUserID: "user-\(index % subscribers)", occurredAt: start,
                payload: "{\"id\":\"evt_\(index)\",\"pad\":\"\(body)\"}", nextAttemptAt: start, createdAt: start)
        }
        for chunk in stride(from: 0, to: batch.count, by: 1_000) {
            _ = try await webhooks.publish(WebhookBatch(deliveries: Array(batch[chunk..<min(chunk + 1_000, batch.count)]), firedAt: start))
        }
        let service = AppServices(store: store, catalog: Catalog(), verifiers: [], now: { Date() }, logger: logger)
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let policy = WebhookDeliveryPolicy()
        let clock = ContinuousClock()
        let sent = try await clock.measure {
            while try await webhooks.deliveryCounts()[.pending, default: 0] > 0 {
                _ = try await WebhookSender(client: http, policy: policy).deliver(service.webhooks.deliveryTarget, holder: "load")
            }
        }
        let reference = try await clock.measure {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for lane in 0..<policy.concurrencyPerEndpoint {
                    group.addTask {
                        for index in stride(from: lane, to: batch.count, by: policy.concurrencyPerEndpoint) {
                            var request = HTTPClientRequest(url: receiver.absoluteString)
                            request.method = .POST
                            request.headers.add(name: "Content-Type", value: "application/json")
                            request.body = .bytes(ByteBuffer(string: batch[index].payload))
                            let response = try await http.execute(request, timeout: .seconds(10))
                            _ = try await response.body.collect(upTo: 1 << 16)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        try await http.shutdown()
        let rate = Double(deliveries) / ServerLoad.seconds(sent)
        let bare = Double(deliveries) / ServerLoad.seconds(reference)
        print("""
            ## Webhook delivery (SQLite)

            | measure | result |
            |---|---:|
            | \(deliveries) deliveries of \(subscribers) subscribers, signed, in order, every attempt recorded | \(Int(rate))/s |
            | reference: the same bodies posted bare (\(policy.concurrencyPerEndpoint) concurrent, unsigned, unrecorded) | \(Int(bare))/s |
            | WebhookSender / bare | \(String(format: "%.2f", rate / bare)) |

            """)
    }
}
