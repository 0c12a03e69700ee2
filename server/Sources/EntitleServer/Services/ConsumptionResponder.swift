import Foundation
import Logging
import ServiceLifecycle

/// Answers the CONSUMPTION_REQUEST notifications of every app that opted in (`consumptionInformation`)
/// and has the App Store Server API: every `interval` until graceful shutdown, from each app's durable
/// cursor, so a request the server received but could not answer at once (Apple unreachable, a crash)
/// is answered while its 12-hour window lasts. Requests are also answered as they arrive.
public struct ConsumptionResponder: Service {
    let services: [ConsumptionService]
    let interval: Duration
    /// The clock the responder sleeps on.
    let clock: any Clock<Duration>

    public init(services: [ConsumptionService], interval: Duration, clock: any Clock<Duration> = ContinuousClock()) {
        self.services = services.filter(\.answersConsumptionRequests)
        self.interval = interval
        self.clock = clock
    }

    public func run() async throws {
        // A service that returns ends the application: with nothing to answer, wait for shutdown.
        guard !services.isEmpty else { return try await gracefulShutdown() }
        await everyInterval(interval, clock: clock, after: services.map(\.ledgerReadiness)) {
            for service in services where !Task.isCancelled {
                do throws(ServiceError) {
                    _ = try await service.answerConsumptionRequests(holder: service.instanceID)
                } catch {
                    service.logger.passDidNotFinish(
                        "consumption requests will be answered later", cutShort: "consumption answers cut short by shutdown",
                        metadata: ["app": "\(service.bundleID)", "error.code": "\(error.code)"])
                }
            }
        }
    }
}
