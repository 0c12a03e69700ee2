import EntitleCore
@testable import EntitleServer
import EntitleStorage
import EntitleTestSupport
import Foundation
import Logging
import Testing

/// The subscriber service on the in-memory ledger: no HTTP, no database, the same roles the server
/// gives it. Epilogue's free tier: 2 conversations per calendar month.
@Suite("SubscriberService")
struct SubscriberServiceTests {
    static let feature = "conversations"

    /// Epilogue's services over a fresh memory ledger, on `clock`.
    static func services(_ clock: TestClock, store: any LedgerStore = MemoryLedgerStore(app: "com.epilogue.app")) -> AppServices {
        AppServices(
            store: store, catalog: Fixtures.exampleCatalog("Epilogue"), verifiers: [], now: clock.reading,
            logger: Logger(label: "entitle.tests.subscriber-service"))
    }

    @Test("the free tier's quota admits 2 uses a month, refuses the 3rd with a paywall, counts a repeated key once, and starts again next month")
    func quota() async throws {
        let clock = TestClock(ReferenceTime.day(0))
        let subscribers = Self.services(clock).subscribers
        for key in ["a", "b", "b"] {
            _ = try await subscribers.recordUsage(appUserID: "reader", feature: Self.feature, amount: 1, idempotencyKey: key)
        }
        let exhausted = try await subscribers.access(appUserID: "reader", feature: Self.feature, usage: 1)
        #expect(!exhausted.decision.isAllowed)
        #expect(exhausted.decision.paywall != nil)
        await #expect(throws: ServiceError(.quotaExhausted, "")) {
            try await subscribers.recordUsage(appUserID: "reader", feature: Self.feature, amount: 1, idempotencyKey: "c")
        }
        clock.advance(days: 40)
        let nextMonth = try await subscribers.recordUsage(appUserID: "reader", feature: Self.feature, amount: 1, idempotencyKey: "d")
        #expect(nextMonth.decision.isAllowed)
    }

    @Test("uses racing for the last unit: exactly the quota is admitted, whatever the interleaving")
    func concurrentUses() async throws {
        let clock = TestClock(ReferenceTime.day(0))
        let subscribers = Self.services(clock).subscribers
        let admitted = await withTaskGroup(of: Bool.self) { group in
            for n in 0..<12 {
                group.addTask {
                    (try? await subscribers.recordUsage(appUserID: "reader", feature: Self.feature, amount: 1, idempotencyKey: "use-\(n)")) != nil
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(admitted == 2)
    }

    @Test("a log-in merges the anonymous subscriber's usage into the known one; again changes nothing; into another is refused")
    func logIn() async throws {
        let clock = TestClock(ReferenceTime.day(0))
        let store = MemoryLedgerStore(app: "com.epilogue.app")
        let subscribers = Self.services(clock, store: store).subscribers
        let anonymous = AppUserID(AppUserID.anonymousPrefix + "6f1c1e0a-4c1b-4b7e-9c59-2b0d3a4e5f60")
        _ = try await subscribers.recordUsage(appUserID: anonymous, feature: Self.feature, amount: 2, idempotencyKey: "before")
        _ = try await subscribers.logIn(anonymous: anonymous, as: "known")
        // The anonymous ID now reaches the known subscriber, whose month already used both.
        #expect(!(try await subscribers.access(appUserID: "known", feature: Self.feature, usage: 1)).decision.isAllowed)
        #expect(!(try await subscribers.access(appUserID: anonymous, feature: Self.feature, usage: 1)).decision.isAllowed)
        #expect(try await store.aliasTarget(anonymous) == "known")
        let events = try await store.eventCount()
        _ = try await subscribers.logIn(anonymous: anonymous, as: "known")
        #expect(try await store.eventCount() == events)
        await #expect(throws: ServiceError(.alreadyMerged, "")) { try await subscribers.logIn(anonymous: anonymous, as: "someone-else") }
    }
}
