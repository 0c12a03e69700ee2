import AsyncHTTPClient
import EntitleStorage
import Foundation
import Logging
import ServiceLifecycle

/// The webhooks' long-running part: every `interval` until graceful shutdown, for every app, publishes
/// what the ledger and the schedule bring and sends what is due.
public struct WebhookWorker: Service {
    let services: [SubscriptionService]
    let client: HTTPClient
    let sender: WebhookSender
    let interval: Duration

    /// Sends with its own HTTP client, shut down when the worker stops.
    public init(services: [SubscriptionService], policy: WebhookDeliveryPolicy, interval: Duration) {
        self.services = services
        self.client = HTTPClient(eventLoopGroupProvider: .singleton)
        self.sender = WebhookSender(client: client, policy: policy)
        self.interval = interval
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                for service in services { await pass(service) }
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return
                }
            }
        }
        try await client.shutdown()
    }

    /// Publishes then sends for one app; a failure is logged and the next pass tries again.
    public func pass(_ service: SubscriptionService) async {
        do throws(ServiceError) {
            _ = try await service.publishWebhooks(holder: service.instanceID)
            _ = try await sender.deliver(service, holder: service.instanceID)
            if let counts = try? await service.webhooks.deliveryCounts() { service.metrics.recordWebhookBacklog(app: service.bundleID, counts) }
        } catch {
            service.logger.warning("webhooks will be published later", metadata: ["app": "\(service.bundleID)", "error.code": "\(error.code)"])
        }
    }
}
