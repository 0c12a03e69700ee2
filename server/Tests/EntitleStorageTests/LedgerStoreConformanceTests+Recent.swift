import EntitleCore
import EntitleStorage
import EntitleTestSupport
import Foundation
import Testing

extension LedgerStoreConformanceTests {
    @Test("recent subscribers: the latest updated first (ties by appUserID), in pages that go on after a cursor, of the store's app only",
          arguments: StorageEngine.allCases)
    func recentSubscribers(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            // u0 … u4 updated a day apart, u2 and u3 at the same instant; u0 again last of all.
            let instants = [Self.day(1), Self.day(2), Self.day(3), Self.day(3), Self.day(4), Self.day(9)]
            for (seed, (user, at)) in zip(["u0", "u1", "u2", "u3", "u4", "u0"], instants).enumerated() {
                _ = try await store.append(LedgerEvents.admin(9_100 + seed, appUserID: AppUserID(user), at: at, .appTrialStarted(at: at)))
            }
            _ = try await store.forApp("com.other.app").append(LedgerEvents.admin(9_200, appUserID: "other", at: Self.day(10), .appTrialStarted(at: Self.day(10))))

            let all = try await store.recentSubscribers(limit: 10, after: nil)
            #expect(all.map(\.appUserID) == ["u0", "u4", "u3", "u2", "u1"])
            #expect(all.first?.updatedAt == Self.day(9))
            #expect(all.first?.facts.appTrialStartedAt == Self.day(1))
            var pages: [[AppUserID]] = []
            var cursor: RecentSubscriber.Cursor?
            repeat {
                let page = try await store.recentSubscribers(limit: 2, after: cursor)
                pages.append(page.map(\.appUserID))
                cursor = page.count == 2 ? page.last?.cursor : nil
            } while cursor != nil
            #expect(pages == [["u0", "u4"], ["u3", "u2"], ["u1"]])
        }
    }
}
