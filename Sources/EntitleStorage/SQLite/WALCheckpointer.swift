import Logging
import NIOConcurrencyHelpers
import NIOPosix

/// Checkpoints the embedded engine's WAL into the database file on a connection of its own, off the
/// writer's path: once a commit leaves the WAL holding ``threshold`` pages or more, a checkpoint
/// starts in the background (SQLite's `PASSIVE` mode: it copies what no reader still needs and never
/// waits), and the commit, with every append waiting for it, returns without it.
///
/// SQLite's own automatic checkpoint ran inside the commit that crossed the threshold: that commit,
/// and the group of appends behind it, waited while thousands of pages were copied and the database
/// file synced. The checkpoint's connection syncs as the writer does (`synchronous = FULL`), so the
/// WAL is only ever reset once what it held is durable in the database file.
///
/// Commits arriving while a checkpoint runs ask for one more after it; one runs at a time. A
/// checkpoint that fails (another process checkpointing, say) is tried again after the next commit.
final class WALCheckpointer: Sendable {
    /// WAL pages from which a commit starts a checkpoint.
    let threshold: Int
    private let handle: SQLiteHandle
    private let threadPool: NIOThreadPool
    private let logger: Logger
    private let beforeCheckpoint: @Sendable () async -> Void
    private let state = NIOLockedValueBox(State())

    private struct State {
        var running = false
        var requested = false
        var closed = false
        var completed = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// `handle` is the checkpoint's own connection (this type closes it); `beforeCheckpoint` runs
    /// before each checkpoint (tests hold it to see a commit return without one).
    init(
        handle: SQLiteHandle, threshold: Int, threadPool: NIOThreadPool, logger: Logger,
        beforeCheckpoint: @escaping @Sendable () async -> Void = {}
    ) {
        self.handle = handle
        self.threshold = threshold
        self.threadPool = threadPool
        self.logger = logger
        self.beforeCheckpoint = beforeCheckpoint
    }

    /// A commit left the WAL holding `pages` pages: starts a checkpoint from the threshold on, or
    /// asks for one more after the one under way.
    func committed(walPages pages: Int) {
        guard pages >= threshold else { return }
        let start = state.withLockedValue { state -> Bool in
            guard !state.closed else { return false }
            if state.running {
                state.requested = true
                return false
            }
            state.running = true
            return true
        }
        if start { Task { await self.drain() } }
    }

    /// Checkpoints that ran since the engine opened.
    var completed: Int { state.withLockedValue { $0.completed } }

    /// Whether a close was asked for: no commit starts a checkpoint any more.
    var isClosing: Bool { state.withLockedValue { $0.closed } }

    /// Returns once no checkpoint runs or is asked for.
    func settled() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLockedValue { state -> Bool in
                guard state.running else { return true }
                state.waiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Stops taking commits, waits for the checkpoint under way, and closes the connection.
    func close() async {
        state.withLockedValue { $0.closed = true }
        await settled()
        handle.close()
    }

    private func drain() async {
        while true {
            await beforeCheckpoint()
            let done = await checkpoint()
            let waiters = state.withLockedValue { state -> [CheckedContinuation<Void, Never>]? in
                if done { state.completed += 1 }
                if state.requested && !state.closed {
                    state.requested = false
                    return nil
                }
                state.running = false
                state.requested = false
                defer { state.waiters = [] }
                return state.waiters
            }
            guard let waiters else { continue }
            for waiter in waiters { waiter.resume() }
            return
        }
    }

    /// One checkpoint on the thread pool (it waits for the disk); whether it ran.
    private func checkpoint() async -> Bool {
        let handle = handle
        do {
            return try await threadPool.runIfActive { () throws -> Bool in try handle.checkpoint() }
        } catch let error as StorageError {
            logger.warning("the WAL checkpoint failed", metadata: ["error.code": "\(error.code)", "error": "\(error.message)"])
        } catch {
            logger.warning("the WAL checkpoint could not run", metadata: ["error": "\(error)"])
        }
        return false
    }
}
