import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@testable import EntitleStorage

extension LedgerStoreConformanceTests {
    @Test(
        "a batch appends as its events one by one would: the same outcomes, events, projections and held events, each subscriber stored once",
        arguments: StorageEngine.allCases)
    func batchAppend(engine: StorageEngine) async throws {
        // Two subscribers, a purchase whose notifications come before the app submits it (held, then
        // adopted by the link), a duplicate inside the batch and one already stored.
        let first = Self.history(user: "u1", original: "1000", seedBase: 0)
        let second = Self.history(user: "u2", original: "2000", seedBase: 200)
        var early = second.prefix(3).map { event in
            var held = event
            held.appUserID = nil
            return held
        }
        early[0].id = LedgerEvents.id(500)
        let batch = Array(first.prefix(4)) + early + [first[1]] + Array(second.suffix(1)) + Array(first.suffix(3))
        try await engine.withStore { one in
            try await engine.withStore { many in
                _ = try await one.append(first[0])
                _ = try await many.append(first[0])
                var expected: [AppendOutcome] = []
                for event in batch { expected.append(try await one.append(event)) }
                let outcomes = try await many.append(contentsOf: batch)
                #expect(outcomes.map(\.isAppended) == expected.map(\.isAppended))
                #expect(outcomes.compactMap(\.appUserID) == expected.compactMap(\.appUserID))
                for user: AppUserID in ["u1", "u2"] {
                    #expect(try await many.events(appUserID: user) == one.events(appUserID: user))
                    #expect(try await many.projection(appUserID: user) == one.projection(appUserID: user))
                    #expect(try await many.projection(appUserID: user) == SubscriberFacts.fold(appUserID: user, events: one.events(appUserID: user)))
                }
                #expect(try await many.heldEventCount() == 0)
                #expect(try await many.eventCount() == one.eventCount())
                #expect(try await many.append(contentsOf: []) == [])
                #expect(try await many.append(contentsOf: batch).allSatisfy { $0 == .duplicate })
            }
        }
    }
}

extension AppendOutcome {
    fileprivate var isAppended: Bool { if case .appended = self { true } else { false } }
    fileprivate var appUserID: AppUserID? { if case .appended(_, let user) = self { user } else { nil } }
}
