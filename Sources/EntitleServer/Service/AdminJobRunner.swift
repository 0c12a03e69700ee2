import Logging
import ServiceLifecycle

/// Runs the long admin work requests start (``SubscriptionService/startReconciliation(since:runner:)``)
/// as a service of the application: graceful shutdown cancels what is running and waits for it to
/// record how it ended, so nothing outlives the server untracked.
public final class AdminJobRunner: Service, Sendable {
    private let work: AsyncStream<@Sendable () async -> Void>
    private let submit: AsyncStream<@Sendable () async -> Void>.Continuation

    public init() {
        (work, submit) = AsyncStream.makeStream(of: (@Sendable () async -> Void).self)
    }

    /// Runs `job` as soon as the runner does; `false` when the runner has stopped.
    func start(_ job: @escaping @Sendable () async -> Void) -> Bool {
        if case .enqueued = submit.yield(job) { return true }
        return false
    }

    public func run() async {
        await withDiscardingTaskGroup { group in
            await withGracefulShutdownHandler {
                for await job in work { group.addTask { await job() } }
            } onGracefulShutdown: {
                // No new work; what runs is cancelled by the group's cancellation below.
                self.submit.finish()
            }
            group.cancelAll()
        }
    }
}
