import NIOCore

/// A task executor that runs its jobs on one event loop: a task preferring it
/// (`withTaskExecutorPreference`) runs on that loop's thread, beside the loop's I/O, so an answer read
/// on the loop resumes the task there without waking another thread. Work that runs long without
/// suspending must not prefer it: the loop's I/O waits behind it.
public final class EventLoopExecutor: TaskExecutor {
    public let loop: any EventLoop

    public init(loop: any EventLoop) {
        self.loop = loop
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
