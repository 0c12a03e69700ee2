import NIOConcurrencyHelpers

/// A clock whose sleeps return at once, its time moved on by what each asked for; it counts them.
/// Its time moves only when something sleeps.
public final class SkippingClock: Clock, Sendable {
    private let state: NIOLockedValueBox<(now: ContinuousClock.Instant, sleeps: [Duration])>

    public init(start: ContinuousClock.Instant = .now) {
        state = NIOLockedValueBox((start, []))
    }

    public var now: ContinuousClock.Instant { state.withLockedValue { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// What each sleep asked for, in order.
    public var sleeps: [Duration] { state.withLockedValue { $0.sleeps } }

    public func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        state.withLockedValue { state in
            state.sleeps.append(state.now.duration(to: deadline))
            if deadline > state.now { state.now = deadline }
        }
    }
}
