import EntitleCore
import EntitleStorage
import EntitleTestSupport
import Foundation
import Testing

extension LedgerStoreConformanceTests {
    @Test("the feed: every event of the store's app once, in order, in pages after a position the reader keeps; nothing past the head it was given",
          arguments: StorageEngine.allCases)
    func feed(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let events = AnalyticsLedger.events
            var (early, late): ([LedgerEvent], [LedgerEvent]) = ([], [])
            // Those stored: a second version of a transaction the app submitted again is a duplicate.
            for event in events.prefix(10) where try await store.append(event) != .duplicate { early.append(event) }
            _ = try await store.append(events[0])  // a duplicate is no new event
            _ = try await store.forApp("com.other.app").append(LedgerEvents.admin(9_300, appUserID: "other", at: Self.day(1), .appTrialStarted(at: Self.day(1))))
            let head = try await store.feedHead()
            for event in events.dropFirst(10) where try await store.append(event) != .duplicate { late.append(event) }

            var read: [(sequence: Int64, event: LedgerEvent)] = []
            var position: Int64 = 0
            while true {
                let page = try await store.feedEvents(after: position, through: head, limit: 3)
                guard let last = page.last else { break }
                #expect(page.count <= 3)
                read += page
                position = last.sequence
            }
            #expect(read.map(\.event.id) == early.map(\.id))
            #expect(zip(read, read.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
            #expect(read.allSatisfy { $0.sequence <= head && $0.event.rawSignedPayload == nil })
            // From that head on: the rest, once.
            let next = try await store.feedHead()
            let rest = try await store.feedEvents(after: head, through: next, limit: 1_000)
            #expect(rest.map(\.event.id) == late.map(\.id))
            #expect(try await store.feedEvents(after: next, through: next, limit: 10).isEmpty)
        }
    }
}
