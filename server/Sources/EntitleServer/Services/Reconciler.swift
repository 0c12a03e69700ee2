import Foundation
import Logging
import ServiceLifecycle

/// Reconciles every app whose App Store Server API is configured: soon after the ledger is migrated,
/// then every `interval` until graceful shutdown. A failed pass is logged and tried
/// again after `retryAfter` (or the interval, if shorter). Each pass takes the app's lease, so of
/// several instances sharing a database one runs it.
public struct Reconciler: Service {
    let services: [AppStoreSyncService]
    let interval: Duration
    let startDelay: Duration
    let retryAfter: Duration
    /// This instance's name in the leases.
    let holder: String
    /// The clock the reconciler sleeps on.
    let clock: any Clock<Duration>

    public init(
        services: [AppStoreSyncService], interval: Duration, startDelay: Duration = .seconds(2), retryAfter: Duration = .seconds(60),
        holder: String = UUID().uuidString, clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.clock = clock
        self.services = services.filter { $0.serverAPI != nil }
        self.interval = interval
        self.startDelay = startDelay
        self.retryAfter = retryAfter
        self.holder = holder
    }

    public func run() async throws {
        // A service that returns ends the application: with nothing to reconcile, wait for shutdown.
        guard !services.isEmpty else { return try await gracefulShutdown() }
        await cancelWhenGracefulShutdown {
            for service in services { await service.ledgerReadiness.wait() }
            var wait = startDelay
            while !Task.isCancelled {
                do {
                    try await clock.sleep(for: wait)
                } catch {
                    return
                }
                wait = interval
                for service in services where !Task.isCancelled {
                    do throws(ServiceError) {
                        _ = try await service.reconcile(holder: holder)
                    } catch {
                        service.logger.passDidNotFinish(
                            "reconciliation will be retried", cutShort: "reconciliation cut short by shutdown",
                            metadata: ["app": "\(service.bundleID)", "error.code": "\(error.code)"])
                        wait = min(wait, retryAfter)
                    }
                }
            }
        }
    }
}
