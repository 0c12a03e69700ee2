import EntitleCore
import EntitleStorage
import Foundation
import Testing

@testable import EntitleServer

@Suite("WebhookSnapshotCache")
struct WebhookSnapshotCacheTests {
    static func snapshot(_ appUserID: AppUserID, _ seconds: Double) -> WebhookSnapshot {
        WebhookSnapshot(facts: SubscriberFacts(appUserID: appUserID), at: Date(timeIntervalSince1970: seconds))
    }

    @Test("what a step stored is found while the cursor is where the step left it; the rest is missing")
    func keeps() {
        let cache = WebhookSnapshotCache()
        cache.stored(["a": Self.snapshot("a", 1), "b": Self.snapshot("b", 1)], cursorAt: 10)
        // A schedule step leaves the cursor alone.
        cache.stored(["b": Self.snapshot("b", 2)], cursorAt: nil)
        let read = cache.snapshots(of: ["a", "b", "c"], cursorAt: 10)
        #expect(read.found == ["a": Self.snapshot("a", 1), "b": Self.snapshot("b", 2)])
        #expect(read.missing == ["c"])
        #expect(cache.snapshots(of: ["a"], cursorAt: nil).found.count == 1)
    }

    @Test("a cursor moved by someone else, a forget, or outgrowing the bound start again", arguments: ["cursor", "forget", "capacity"])
    func startsAgain(reason: String) {
        let cache = WebhookSnapshotCache(capacity: 2)
        cache.stored(["a": Self.snapshot("a", 1)], cursorAt: 10)
        switch reason {
        case "cursor": #expect(cache.snapshots(of: ["a"], cursorAt: 11).missing == ["a"])
        case "forget": cache.forget()
        default: cache.stored(["b": Self.snapshot("b", 1), "c": Self.snapshot("c", 1)], cursorAt: 12)
        }
        #expect(cache.snapshots(of: ["a"], cursorAt: nil).found.isEmpty)
    }
}
