import NIOConcurrencyHelpers

/// Group commit for SQLite's single writer: transactions that arrive while one is committing are run
/// together in the next one, each inside its own savepoint, so one fsync covers many of them.
///
/// Every caller queues its work, then waits for the writer. Whoever holds the writer takes every
/// queued work, runs each in a savepoint (a work that throws is rolled back alone), commits once,
/// and hands each caller its result. A caller whose work an earlier holder already committed finds
/// its result waiting. No caller returns before the commit that holds its work; if that commit fails,
/// every work in it fails. Cancelling a caller doesn't reach a batch already committing.
final class GroupCommit: Sendable {
    /// One queued transaction, type-erased: runs the work and keeps its provisional result.
    private final class Work: Sendable {
        let run: @Sendable (any SQLSession) async -> Bool
        let fail: @Sendable (StorageError) -> Void

        init(run: @escaping @Sendable (any SQLSession) async -> Bool, fail: @escaping @Sendable (StorageError) -> Void) {
            self.run = run
            self.fail = fail
        }
    }

    private let writer = AsyncMutex()
    private let queue = NIOLockedValueBox<[Work]>([])
    private let execute: @Sendable (String) async throws(StorageError) -> Void
    private let session: any SQLSession

    /// - Parameters:
    ///   - session: the writer connection's session.
    ///   - execute: runs a control statement (BEGIN, SAVEPOINT, COMMIT…) on that connection.
    private let observer: StorageObserver

    init(session: any SQLSession, observer: StorageObserver = .none, execute: @escaping @Sendable (String) async throws(StorageError) -> Void) {
        self.session = session
        self.observer = observer
        self.execute = execute
    }

    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws(StorageError) -> T) async throws(StorageError) -> T {
        let result = NIOLockedValueBox<Result<T, StorageError>?>(nil)
        let work = Work(
            run: { session in
                do throws(StorageError) {
                    let value = try await body(session)
                    result.withLockedValue { $0 = .success(value) }
                    return true
                } catch {
                    result.withLockedValue { $0 = .failure(error) }
                    return false
                }
            },
            fail: { error in result.withLockedValue { $0 = .failure(error) } })
        queue.withLockedValue { $0.append(work) }
        try await writer.withLock { () throws(StorageError) in
            let batch = queue.withLockedValue { queued in
                defer { queued.removeAll() }
                return queued
            }
            // The batch holds other callers' work: it runs in its own task, so cancelling the caller
            // that happens to hold the writer (SQLite's statements check for cancellation) can't
            // fail their work or leave the transaction open.
            if !batch.isEmpty { await Task { await self.commit(batch) }.value }
        }
        guard let outcome = result.withLockedValue({ $0 }) else {
            throw StorageError(.queryFailed, "a queued SQLite transaction was never run")
        }
        return try outcome.get()
    }

    /// Runs `body` holding the writer (to close its connection): transactions that get the writer
    /// afterwards fail on the closed connection.
    func closing(_ body: @escaping @Sendable () -> Void) async {
        try? await writer.withLock { () throws(StorageError) in body() }
    }

    private func commit(_ batch: [Work]) async {
        do throws(StorageError) {
            try await execute("BEGIN IMMEDIATE")
        } catch {
            for work in batch { work.fail(error) }
            return
        }
        var committed: [Work] = []
        for work in batch {
            do throws(StorageError) {
                try await execute("SAVEPOINT work")
                if await work.run(session) {
                    try await execute("RELEASE work")
                    committed.append(work)
                } else {
                    try await execute("ROLLBACK TO work")
                    try await execute("RELEASE work")
                }
            } catch {
                // The connection refused a savepoint statement: nothing in this batch can be trusted.
                _ = try? await execute("ROLLBACK")
                for work in batch { work.fail(error) }
                return
            }
        }
        do throws(StorageError) {
            try await execute("COMMIT")
            observer.groupCommitted(batch.count)
        } catch {
            _ = try? await execute("ROLLBACK")
            for work in committed { work.fail(error) }
        }
    }
}
