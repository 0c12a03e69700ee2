import EntitleCore
import EntitleTestSupport
import Foundation
import LocalAppStore
import Testing

@Suite("TimeScale")
struct TimeScaleTests {
    @Test("Apple's sandbox rates", arguments: [("P3D", 2.0), ("P1W", 3), ("P1M", 5), ("P2M", 10), ("P3M", 15), ("P6M", 30), ("P1Y", 60)])
    func appleSandbox(period: String, minutes: Double) throws {
        let duration = try #require(ISODuration(period))
        #expect(TimeScale.appleSandbox.end(of: duration, from: ReferenceTime.start) == ReferenceTime.start + minutes * 60)
    }

    @Test("calendar time, and calendar time divided by a factor")
    func realAndFactor() throws {
        let month = try #require(ISODuration("P1M"))
        #expect(TimeScale.real.end(of: month, from: ReferenceTime.start) == ReferenceTime.day(31))
        #expect(TimeScale.factor(31 * 24).end(of: month, from: ReferenceTime.start) == ReferenceTime.start + 3600)
    }
}
