import EntitleTestSupport
import Foundation
import LocalAppStore
import Testing

@Suite("SimulationClock")
struct SimulationClockTests {
    @Test("held where the simulation sets it, never moved back, then running at the real rate once released")
    func setThenReleased() {
        let real = TestClock(ReferenceTime.day(500))
        let clock = SimulationClock(start: ReferenceTime.day(0), realTime: real.reading)
        clock.advance(to: ReferenceTime.day(3))
        clock.advance(to: ReferenceTime.day(2))
        real.advance(days: 1)
        #expect(clock.now() == ReferenceTime.day(3))
        clock.release()
        real.advance(days: 0.5)
        #expect(clock.now() == ReferenceTime.day(3.5))
    }
}
