import Foundation
import Synchronization

/// A clock tests move by hand.
public final class TestClock: Sendable {
    private let current: Mutex<Date>

    public init(_ start: Date = ReferenceTime.start) {
        current = Mutex(start)
    }

    public var now: Date { current.withLock { $0 } }

    public func set(_ date: Date) { current.withLock { $0 = date } }

    public func advance(days: Double) { current.withLock { $0 = $0.addingTimeInterval(days * 86_400) } }

    /// The clock as the closure services take.
    public var reading: @Sendable () -> Date { { [self] in self.now } }
}
