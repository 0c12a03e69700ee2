import EntitleCore
@testable import EntitleStorage
import EntitleTestSupport
import Foundation
import Testing

extension LedgerStoreConformanceTests {
    @Test(
        "subscribers by the start of their ID: exactly those, in byte order, at most the limit; LIKE's wildcards and case are plain characters",
        arguments: StorageEngine.allCases)
    func searchByPrefix(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let ids: [AppUserID] = ["user-1", "user-10", "user-100", "user-2", "User-1", "user_1", "user%1", "usera", "user-1é", "user-"]
            for (number, id) in ids.enumerated() {
                _ = try await store.append(LedgerEvents.admin(number + 1, appUserID: id, at: ReferenceTime.start, .appTrialStarted(at: ReferenceTime.start)))
            }
            #expect(try await store.subscriberIDs(startingWith: "user-1", limit: 50) == ["user-1", "user-10", "user-100", "user-1é"])
            #expect(try await store.subscriberIDs(startingWith: "user-1", limit: 2) == ["user-1", "user-10"])
            #expect(try await store.subscriberIDs(startingWith: "user_", limit: 50) == ["user_1"])
            #expect(try await store.subscriberIDs(startingWith: "user%", limit: 50) == ["user%1"])
            #expect(try await store.subscriberIDs(startingWith: "nobody", limit: 50) == [])
            #expect(try await store.subscriberIDs(startingWith: "", limit: 50).count == ids.count)
            #expect(try await store.forApp("com.other.app").subscriberIDs(startingWith: "user", limit: 50) == [])
        }
    }
}
