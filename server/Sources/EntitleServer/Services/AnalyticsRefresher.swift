import Foundation
import Logging
import ServiceLifecycle

/// Keeps the analytics aggregates close to the ledger between reports: refreshes every `interval`
/// until graceful shutdown. Reports refresh on their own too, so this only keeps them cheap.
public struct AnalyticsRefresher: Service {
    let service: AnalyticsService
    let interval: Duration
    /// The clock the refresher sleeps on.
    let clock: any Clock<Duration>

    public init(service: AnalyticsService, interval: Duration = .seconds(5), clock: any Clock<Duration> = ContinuousClock()) {
        self.service = service
        self.interval = interval
        self.clock = clock
    }

    /// Waits for the ledger's migration and one interval, then refreshes every interval. A failed
    /// refresh is logged and tried again next time; graceful shutdown stops one under way between
    /// its batches.
    public func run() async throws {
        await everyInterval(interval, clock: clock, after: [service.ledgerReadiness]) {
            do throws(ServiceError) {
                try await service.refreshAnalytics()
            } catch {
                service.logger.passDidNotFinish(
                    "analytics refresh will be retried", cutShort: "analytics refresh cut short by shutdown", metadata: ["error.code": "\(error.code)"])
            }
        }
    }
}
