import Synchronization

/// Whether the ledger is ready for background work: opened once its migration has run, before the
/// server listens. The background services (webhooks, analytics refresh, reconciliation, consumption
/// answers) wait for it before their first pass, so none reads a table a migration is still creating:
/// they start beside the migration, as services of the same group.
public final class LedgerReadiness: Sendable {
    private struct State {
        var ready: Bool
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state: Mutex<State>

    /// Already ready: a ledger migrated by its owner before the services start.
    public static var ready: LedgerReadiness { LedgerReadiness(ready: true) }

    public init(ready: Bool = false) {
        state = Mutex(State(ready: ready))
    }

    public var isReady: Bool { state.withLock { $0.ready } }

    /// Opens it: every waiting task goes on.
    public func markReady() {
        let waiters = state.withLock { state in
            state.ready = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once ready, or at once if it is, or when the calling task is cancelled (which the
    /// caller checks).
    public func wait() async {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let goOn = state.withLock { state in
                    if state.ready || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if goOn { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
