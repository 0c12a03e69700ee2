import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@testable import EntitleStorage

extension LedgerStoreConformanceTests {
    @Test(
        "an event whose ID another stored event holds (another idempotency key) is refused with storage.eventIDTaken, alone, in a batch or in another app; nothing of it is written and the ledger goes on",
        arguments: StorageEngine.allCases)
    func eventIDTaken(engine: StorageEngine) async throws {
        let events = Self.history(user: "u1", original: "1000", seedBase: 0)
        try await engine.withStore { store in
            _ = try await store.append(events[0])
            var clash = events[1]
            clash.id = events[0].id
            let alone = await #expect(throws: StorageError.self) { try await store.append(clash) }
            #expect(alone?.code == .eventIDTaken)
            #expect(alone?.isRetryable == false)
            let admitted = await #expect(throws: StorageError.self) { try await store.append(clash, admitting: { _ in true }) }
            #expect(admitted?.code == .eventIDTaken)
            // A batch is whole or absent: the events before the clash are not kept either.
            let batch = await #expect(throws: StorageError.self) { try await store.append(contentsOf: [events[2], events[3], clash]) }
            #expect(batch?.code == .eventIDTaken)
            // Two new events of one batch with one ID.
            var twin = events[5]
            twin.id = events[4].id
            let twins = await #expect(throws: StorageError.self) { try await store.append(contentsOf: [events[4], twin]) }
            #expect(twins?.code == .eventIDTaken)
            // IDs are unique in the whole database, across apps.
            var elsewhere = events[6]
            elsewhere.id = events[0].id
            let other = await #expect(throws: StorageError.self) { try await store.forApp("com.other.app").append(elsewhere) }
            #expect(other?.code == .eventIDTaken)

            #expect(try await store.eventCount() == 1)
            #expect(try await store.events(appUserID: "u1") == [events[0]])
            #expect(try await store.projection(appUserID: "u1") == SubscriberFacts.fold(appUserID: "u1", events: [events[0]]))
            // The ledger goes on: the refused events under their own IDs append, and the same event's
            // idempotency key again is still a duplicate.
            #expect(try await store.append(contentsOf: Array(events[1...6])).allSatisfy { if case .appended = $0 { true } else { false } })
            #expect(try await store.append(events[0]) == .duplicate)
            #expect(try await store.events(appUserID: "u1") == Array(events[0...6]))
            #expect(try await store.projection(appUserID: "u1") == SubscriberFacts.fold(appUserID: "u1", events: Array(events[0...6])))
        }
    }
}
