import EntitleTestSupport
import Foundation
import Testing

@testable import EntitleServer

/// Failed sign-ins per address: a limit within a window, then refused until it ends; bounded memory.
@Suite("SignInThrottle")
struct SignInThrottleTests {
    @Test("the limit's failures refuse the address until the window ends; another address is untouched")
    func window() throws {
        let throttle = SignInThrottle(limit: 3, window: 60)
        let start = ReferenceTime.day(0)
        for second in 0..<3 {
            try throttle.check("a", now: start.addingTimeInterval(Double(second)))
            throttle.failed("a", now: start.addingTimeInterval(Double(second)))
        }
        #expect(throws: ServiceError.self) { try throttle.check("a", now: start.addingTimeInterval(59)) }
        try throttle.check("b", now: start.addingTimeInterval(59))
        try throttle.check("a", now: start.addingTimeInterval(60))
    }

    @Test("at capacity, an ended window goes first, else the oldest: memory stays bounded")
    func capacity() throws {
        let throttle = SignInThrottle(limit: 1, window: 600)
        let start = ReferenceTime.day(0)
        for index in 0..<SignInThrottle.capacity { throttle.failed("10.0.\(index / 256).\(index % 256)", now: start.addingTimeInterval(Double(index) / 100)) }
        #expect(throws: ServiceError.self) { try throttle.check("10.0.0.0", now: start.addingTimeInterval(100)) }
        throttle.failed("198.51.100.1", now: start.addingTimeInterval(100))
        try throttle.check("10.0.0.0", now: start.addingTimeInterval(100))
        #expect(throws: ServiceError.self) { try throttle.check("10.0.0.1", now: start.addingTimeInterval(100)) }
        #expect(throws: ServiceError.self) { try throttle.check("198.51.100.1", now: start.addingTimeInterval(100)) }
    }
}
