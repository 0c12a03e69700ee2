import NIOConcurrencyHelpers

/// Group commit for SQLite's single writer: transactions that arrive while one is committing are run
/// together in the next one, each inside its own savepoint, so one fsync covers many of them.
///
/// Every caller queues its work and waits for it to be committed. The first caller to find no drain
/// under way starts one: a task that, holding the writer, takes every queued work, runs each in a
/// savepoint (a work that throws is rolled back alone), commits once, resumes each work's caller, and
/// goes on with whatever queued meanwhile until nothing is left. A caller never takes the writer
/// itself, so one whose work is committed returns at once instead of waiting its turn for a writer
/// it no longer needs. No caller returns before the commit that holds its work; if that commit fails,
/// every work in it fails. Cancelling a caller doesn't reach a batch already committing.
final class GroupCommit: Sendable {
    /// One queued transaction, type-erased: runs the work and keeps its provisional result, then
    /// resumes its caller once the batch holding it is committed or has failed.
    private final class Work: Sendable {
        let run: @Sendable (any SQLSession) async -> Bool
        let fail: @Sendable (StorageError) -> Void
        let finished: @Sendable () -> Void

        init(
            run: @escaping @Sendable (any SQLSession) async -> Bool, fail: @escaping @Sendable (StorageError) -> Void,
            finished: @escaping @Sendable () -> Void
        ) {
            self.run = run
            self.fail = fail
            self.finished = finished
        }
    }

    /// The works waiting for the next batch; whether a drain is under way; whether a close waits for
    /// the writer (the drain then stops between batches).
    private struct State {
        var queued: [Work] = []
        var draining = false
        var closing = false
    }

    /// Held by a drain while it runs batches, and by a close.
    private let writer = AsyncMutex()
    private let state = NIOLockedValueBox(State())
    private let execute: @Sendable (String) async throws(StorageError) -> Void
    private let session: any SQLSession
    private let observer: StorageObserver

    /// - Parameters:
    ///   - session: the writer connection's session.
    ///   - execute: runs a control statement (BEGIN, SAVEPOINT, COMMIT…) on that connection.
    init(session: any SQLSession, observer: StorageObserver = .none, execute: @escaping @Sendable (String) async throws(StorageError) -> Void) {
        self.session = session
        self.observer = observer
        self.execute = execute
    }

    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws(StorageError) -> T) async throws(StorageError) -> T {
        let result = NIOLockedValueBox<Result<T, StorageError>?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
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
                fail: { error in result.withLockedValue { $0 = .failure(error) } },
                finished: { continuation.resume() })
            let starts = state.withLockedValue { state -> Bool in
                state.queued.append(work)
                return Self.claimDrain(&state)
            }
            // The batches hold other callers' work: they run in a task of their own, so cancelling the
            // caller that started the drain (SQLite's statements check for cancellation) can't fail
            // their work or leave the transaction open.
            if starts { Task { await self.drain() } }
        }
        guard let outcome = result.withLockedValue({ $0 }) else {
            throw StorageError(.queryFailed, "a queued SQLite transaction was never run")
        }
        return try outcome.get()
    }

    /// How many works wait for the next batch.
    var queuedCount: Int { state.withLockedValue { $0.queued.count } }

    /// Runs `body` holding the writer (to close its connection), once the batch under way is
    /// committed: transactions run afterwards fail on the closed connection.
    func closing(_ body: @escaping @Sendable () -> Void) async {
        state.withLockedValue { $0.closing = true }
        try? await writer.withLock { () throws(StorageError) in body() }
        let starts = state.withLockedValue { state -> Bool in
            state.closing = false
            return Self.claimDrain(&state)
        }
        if starts { await drain() }
    }

    /// Whether the caller is to start a drain: work is queued, none is under way and no close waits
    /// (then one is, from now on).
    private static func claimDrain(_ state: inout State) -> Bool {
        guard !state.queued.isEmpty, !state.draining, !state.closing else { return false }
        state.draining = true
        return true
    }

    /// Runs batches, holding the writer, until no work is queued (or a close waits).
    private func drain() async {
        try? await writer.withLock { () throws(StorageError) in
            while let batch = nextBatch() {
                await commit(batch)
                for work in batch { work.finished() }
            }
        }
    }

    /// Every queued work, or `nil` (the drain over) when none is queued or a close waits.
    private func nextBatch() -> [Work]? {
        state.withLockedValue { state -> [Work]? in
            guard !state.queued.isEmpty, !state.closing else {
                state.draining = false
                return nil
            }
            defer { state.queued.removeAll() }
            return state.queued
        }
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
