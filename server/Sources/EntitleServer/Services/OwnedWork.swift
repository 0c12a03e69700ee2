import Logging
import ServiceLifecycle

/// Runs the work a request starts that outlives it — a reconciliation pass
/// (``AppStoreSyncService/startReconciliation(since:)``), an early answer to Apple's consumption request
/// (``IngestionService``) — as a service of the application: graceful shutdown cancels what is running
/// and waits for it to record how it ended, so nothing outlives the server untracked.
public final class OwnedWork: Service, Sendable {
    private let work: AsyncStream<@Sendable () async -> Void>
    private let submit: AsyncStream<@Sendable () async -> Void>.Continuation

    public init() {
        (work, submit) = AsyncStream.makeStream(of: (@Sendable () async -> Void).self)
    }

    /// Runs `job` as soon as this service runs; `false` when it has stopped.
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
