import Foundation
import Logging

/// Keeps the analytics aggregates close to the ledger between reports: refreshes every `interval`
/// until cancelled. Reports refresh on their own too, so this only keeps them cheap.
public struct AnalyticsRefresher: Sendable {
    let service: SubscriptionService
    let interval: Duration

    public init(service: SubscriptionService, interval: Duration = .seconds(5)) {
        self.service = service
        self.interval = interval
    }

    /// Runs until the task is cancelled. A failed refresh is logged and tried again next time.
    public func run() async {
        while !Task.isCancelled {
            do {
                try await service.refreshAnalytics()
            } catch {
                service.logger.warning("analytics refresh will be retried", metadata: ["error.code": "\(error.code)"])
            }
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
        }
    }
}
