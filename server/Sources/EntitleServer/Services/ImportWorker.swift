import Foundation
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle

/// Carries on the customer imports apps started (`POST /v1/imports/jobs`), every `interval` until graceful
/// shutdown, which stops it between two batches. Each job is carried on by the instance holding its
/// lease; one that stops mid-job (a restart, a crash) leaves it to the next holder. A pass that fails
/// (Apple unreachable) is logged, recorded on the job, and tried again `retryAfter` later.
public struct ImportWorker: Service {
    let services: [AppStoreSyncService]
    let interval: Duration
    let retryAfter: Duration
    /// This instance's name in the leases.
    let holder: String
    let clock: any Clock<Duration>

    public init(
        services: [AppStoreSyncService], interval: Duration, retryAfter: Duration = .seconds(30), holder: String = UUID().uuidString,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.services = services.filter(\.hasServerAPI)
        self.interval = interval
        self.retryAfter = retryAfter
        self.holder = holder
        self.clock = clock
    }

    public func run() async throws {
        guard !services.isEmpty else { return try await gracefulShutdown() }
        // Each app's passes wait this many intervals after a failure.
        let resting = NIOLockedValueBox([Int](repeating: 0, count: services.count))
        let restIntervals = max(1, Int(retryAfter / interval))
        await everyInterval(interval, clock: clock, after: services.map(\.ledgerReadiness)) { [services, holder] in
            for (index, service) in services.enumerated() where !Task.isCancelled {
                let rest = resting.withLockedValue { rest in
                    defer { rest[index] = max(0, rest[index] - 1) }
                    return rest[index]
                }
                guard rest == 0 else { continue }
                do throws(ServiceError) {
                    try await service.runImportJobs(holder: holder)
                } catch {
                    service.logger.passDidNotFinish(
                        "an import will be carried on later", cutShort: "an import paused by shutdown",
                        metadata: ["app": "\(service.bundleID)", "error.code": "\(error.code)"])
                    resting.withLockedValue { $0[index] = restIntervals }
                }
            }
        }
    }
}
