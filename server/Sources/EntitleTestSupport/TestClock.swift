import Foundation
import NIOConcurrencyHelpers

/// A clock tests move by hand.
public final class TestClock: Sendable {
    private let current: NIOLockedValueBox<Date>

    public init(_ start: Date = ReferenceTime.start) {
        current = NIOLockedValueBox(start)
    }

    public var now: Date { current.withLockedValue { $0 } }

    public func set(_ date: Date) { current.withLockedValue { $0 = date } }

    public func advance(days: Double) { current.withLockedValue { $0 = $0.addingTimeInterval(days * 86_400) } }

    /// The clock as the closure services take.
    public var reading: @Sendable () -> Date { { [self] in self.now } }
}
