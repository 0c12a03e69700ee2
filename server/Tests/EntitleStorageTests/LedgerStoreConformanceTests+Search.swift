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

    @Test("every projection page by page in the byte order of IDs, each once, equal to its own read; another app's apart", arguments: StorageEngine.allCases)
    func projectionPages(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let ids: [AppUserID] = ["user-1", "user-10", "User-1", "user_1", "user%1", "usera", "user-1é", "a", "z", "Zoë"]
            for (number, id) in ids.enumerated() {
                _ = try await store.append(LedgerEvents.admin(number + 1, appUserID: id, at: ReferenceTime.start + Double(number), .appTrialStarted(at: ReferenceTime.start + Double(number))))
            }
            _ = try await store.forApp("com.other.app").append(LedgerEvents.admin(99, appUserID: "other", at: ReferenceTime.start, .appTrialStarted(at: ReferenceTime.start)))
            var seen: [AppUserID] = []
            var cursor: AppUserID?
            while true {
                let page = try await store.projections(after: cursor, limit: 3)
                #expect(page.count <= 3)
                for (id, facts) in page { #expect(try await store.projection(appUserID: id) == facts) }
                seen += page.map(\.appUserID)
                guard let last = page.last else { break }
                cursor = last.appUserID
            }
            #expect(seen == ids.sorted { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) })
            #expect(try await store.projections(after: "zz", limit: 10).isEmpty)
        }
    }
}
