import Foundation
import NIOConcurrencyHelpers

/// The clock of a simulation: set by the simulation while it plays, then, once released, running at
/// the real rate from where the simulation left it. The real time source is an input.
public final class SimulationClock: Sendable {
    private enum Mode {
        case set(Date)
        case running(from: Date, realStart: Date)
    }

    private let mode: NIOLockedValueBox<Mode>
    private let realTime: @Sendable () -> Date

    public init(start: Date, realTime: @escaping @Sendable () -> Date) {
        self.mode = NIOLockedValueBox(.set(start))
        self.realTime = realTime
    }

    public func now() -> Date {
        mode.withLockedValue { mode in
            switch mode {
            case .set(let date): date
            case .running(let from, let realStart): from + realTime().timeIntervalSince(realStart)
            }
        }
    }

    /// Moves the clock to `date` (never backwards) and holds it there.
    public func advance(to date: Date) {
        mode.withLockedValue { mode in
            if case .set(let current) = mode, date < current { return }
            mode = .set(date)
        }
    }

    /// From now on the clock runs at the real rate.
    public func release() {
        let real = realTime()
        mode.withLockedValue { mode in
            if case .set(let current) = mode { mode = .running(from: current, realStart: real) }
        }
    }
}
