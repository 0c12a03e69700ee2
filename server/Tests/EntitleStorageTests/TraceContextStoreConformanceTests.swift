import EntitleCore
import EntitleStorage
import EntitleTestSupport
import Foundation
import Testing

/// One suite, every engine: what any TraceContextStore must guarantee.
@Suite("TraceContextStore conformance")
struct TraceContextStoreConformanceTests {
    @Test("an event's trace is kept once (the first stands), per app, read back for many events at once, forgotten when old", arguments: StorageEngine.allCases)
    func lifecycle(engine: StorageEngine) async throws {
        try await engine.withStore { root in
            let one = root.forApp("com.example.one").traceContextStore()
            let two = root.forApp("com.example.two").traceContextStore()
            let parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
            try await one.recordTrace(eventID: "e1", traceParent: parent, at: ReferenceTime.day(0))
            try await one.recordTrace(eventID: "e1", traceParent: "00-ffffffffffffffffffffffffffffffff-ffffffffffffffff-01", at: ReferenceTime.day(0))
            try await one.recordTrace(eventID: "e2", traceParent: parent, at: ReferenceTime.day(2))
            #expect(try await one.traceParents(eventIDs: ["e1", "e2", "e3"]) == ["e1": parent, "e2": parent])
            #expect(try await two.traceParents(eventIDs: ["e1", "e2"]).isEmpty, "another app's")
            #expect(try await one.traceParents(eventIDs: []).isEmpty)
            // More than one statement's worth of IDs.
            let many = (0..<1_200).map { "x\($0)" } + ["e2"]
            #expect(try await one.traceParents(eventIDs: many) == ["e2": parent])
            #expect(try await one.deleteTraces(before: ReferenceTime.day(1)) == 1)
            #expect(try await one.traceParents(eventIDs: ["e1", "e2"]) == ["e2": parent])
        }
    }
}
