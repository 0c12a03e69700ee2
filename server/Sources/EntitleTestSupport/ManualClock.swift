import NIOConcurrencyHelpers

/// A clock a test moves by hand: a sleep returns once ``advance(by:)`` has moved the time to its
/// deadline (or its task is cancelled), so a test drives a background loop pass by pass.
public final class ManualClock: Clock, Sendable {
    private struct Sleeper {
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now: ContinuousClock.Instant
        var sleepers: [UInt64: Sleeper] = [:]
        var cancelled: Set<UInt64> = []
        var nextID: UInt64 = 0
    }

    private let state: NIOLockedValueBox<State>

    public init(start: ContinuousClock.Instant = .now) {
        state = NIOLockedValueBox(State(now: start))
    }

    public var now: ContinuousClock.Instant { state.withLockedValue { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// How many sleeps wait for the time to move.
    public var sleeping: Int { state.withLockedValue { $0.sleepers.count } }

    public func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        let id = state.withLockedValue { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLockedValue { state -> Bool in
                    if state.cancelled.remove(id) != nil || deadline <= state.now { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLockedValue { state -> Sleeper? in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return sleeper
            }
            sleeper?.continuation.resume()
        }
        try Task.checkCancellation()
    }

    /// Moves the time on by `duration`, waking every sleep whose deadline it reaches.
    public func advance(by duration: Duration) {
        let due = state.withLockedValue { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers.removeValue(forKey: id) }
            return Array(due.values)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
