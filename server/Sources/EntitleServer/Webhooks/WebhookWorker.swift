import AsyncHTTPClient
import EntitleStorage
import Foundation
import Logging
import ServiceLifecycle

/// The webhooks' long-running part: every `interval` until graceful shutdown, for every app, publishes
/// what the ledger and the schedule bring and sends what is due.
public struct WebhookWorker: Service {
    let services: [WebhookService]
    let client: HTTPClient
    let sender: WebhookSender
    let interval: Duration
    /// The clock the worker sleeps on between rounds.
    let clock: any Clock<Duration>

    /// Sends with its own HTTP client, shut down when the worker stops.
    public init(
        services: [WebhookService], policy: WebhookDeliveryPolicy, interval: Duration, signingClock: (@Sendable () -> Date)? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.clock = clock
        self.services = services
        self.client = HTTPClient(eventLoopGroupProvider: .singleton)
        self.sender = WebhookSender(client: client, policy: policy, signingClock: signingClock)
        self.interval = interval
    }

    public func run() async throws {
        // Publishing and sending run side by side: a long queue to send never holds back what the
        // ledger brings next.
        await cancelWhenGracefulShutdown {
            for service in services { await service.ledgerReadiness.wait() }
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await loop { service in await publish(service) } }
                group.addTask { await loop { service in await send(service) } }
            }
        }
        // Another instance takes over at once; a task of its own, as this one is cancelled.
        await Task {
            for service in services { await service.releaseWebhookLeases() }
        }.value
        try await client.shutdown()
    }

    private func loop(_ work: @Sendable (WebhookService) async -> Void) async {
        while !Task.isCancelled {
            for service in services { await work(service) }
            do {
                try await clock.sleep(for: interval)
            } catch {
                return
            }
        }
    }

    func publish(_ service: WebhookService) async {
        do throws(ServiceError) {
            _ = try await service.publishWebhooks(holder: service.instanceID)
            _ = try await service.publishForwards(holder: service.instanceID)
        } catch {
            service.logger.passDidNotFinish(
                "webhooks will be published later", cutShort: "webhook publishing cut short by shutdown",
                metadata: ["app": "\(service.bundleID)", "error.code": "\(error.code)"])
        }
    }

    func send(_ service: WebhookService) async {
        do throws(ServiceError) {
            _ = try await sender.deliver(service.deliveryTarget, holder: service.instanceID)
            if let counts = try? await service.webhookStore.deliveryCounts() { service.metrics.recordWebhookBacklog(app: service.bundleID, counts) }
        } catch {
            service.logger.passDidNotFinish(
                "webhooks will be sent later", cutShort: "webhook sending cut short by shutdown",
                metadata: ["app": "\(service.bundleID)", "error.code": "\(error.code)"])
        }
    }

}
