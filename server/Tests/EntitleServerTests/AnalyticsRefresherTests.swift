import AppStoreModels
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import Foundation
import Testing

@Suite("AnalyticsRefresher")
struct AnalyticsRefresherTests {
    @Test("refreshes when its clock passes an interval, not before, and again each interval", arguments: StorageEngine.databases)
    func refreshesOnItsClock(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let first = harness.apple.subscription(
                "com.screentimerewards.family.monthly", original: "771", purchase: ReferenceTime.start, expires: ReferenceTime.day(31))
            try await harness.postNotification(client, harness.notification(.subscribed, transaction: first))
            let analytics = harness.store.analyticsStore()
            #expect(try await analytics.pendingAnalytics() == 1)

            let clock = ManualClock()
            let refresher = AnalyticsRefresher(service: harness.service().analytics, interval: .seconds(5), clock: clock)
            let running = Task { try await refresher.run() }
            defer { running.cancel() }
            try await Self.untilSleeping(clock)
            clock.advance(by: .seconds(4))
            #expect(clock.sleeping == 1, "four seconds of a five-second interval wake nothing")
            #expect(try await analytics.pendingAnalytics() == 1)

            clock.advance(by: .seconds(1))
            try await Self.untilSleeping(clock)
            #expect(try await analytics.pendingAnalytics() == 0, "the pass at five seconds refreshed")

            let second = harness.apple.subscription(
                "com.screentimerewards.family.monthly", original: "772", purchase: ReferenceTime.start, expires: ReferenceTime.day(31))
            try await harness.postNotification(client, harness.notification(.subscribed, transaction: second))
            #expect(try await analytics.pendingAnalytics() == 1)
            clock.advance(by: .seconds(5))
            try await Self.untilSleeping(clock)
            #expect(try await analytics.pendingAnalytics() == 0, "the next interval's pass refreshed the new event")
        }
    }

    /// Waits for the refresher to sleep on `clock` (its pass, if one ran, over).
    static func untilSleeping(_ clock: ManualClock) async throws {
        for _ in 0..<6_000 where clock.sleeping == 0 { try await Task.sleep(for: .milliseconds(5)) }
        try #require(clock.sleeping == 1, "the refresher never slept on its clock")
    }
}
