import EntitleCore
import EntitleTestSupport
import Testing

@testable import EntitleStorage

/// Decoded projections kept by revision.
@Suite("Projection cache")
struct ProjectionCacheTests {
    @Test("kept facts are given back only for the revision they were kept with, and only for their app and subscriber")
    func byRevision() {
        let cache = ProjectionCache()
        let facts = SubscriberFacts(appUserID: "u1")
        #expect(cache.revision("app", "u1") == 0)
        cache.keep(facts, revision: 7, app: "app", appUserID: "u1")
        #expect(cache.revision("app", "u1") == 7)
        #expect(cache.facts("app", "u1", revision: 7) == facts)
        #expect(cache.facts("app", "u1", revision: 8) == nil)
        #expect(cache.facts("other", "u1", revision: 7) == nil)
        #expect(cache.facts("app", "u2", revision: 7) == nil)
        let newer = SubscriberFacts(appUserID: "u1", appTrialStartedAt: ReferenceTime.start)
        cache.keep(newer, revision: 9, app: "app", appUserID: "u1")
        #expect(cache.facts("app", "u1", revision: 7) == nil)
        #expect(cache.facts("app", "u1", revision: 9) == newer)
    }

    @Test("it keeps at most its capacity: the subscribers kept longest ago make room for the newest")
    func bounded() {
        let cache = ProjectionCache(capacity: 3)
        for index in 1...10 { cache.keep(SubscriberFacts(appUserID: "u\(index)"), revision: Int64(index), app: "app", appUserID: "u\(index)") }
        let kept = (1...10).filter { cache.facts("app", "u\($0)", revision: Int64($0)) != nil }
        #expect(kept == [8, 9, 10])
    }

    @Test("the last owner of each purchase is noted per app, replaced by the next, and bounded like the projections")
    func lastOwners() {
        let cache = ProjectionCache(capacity: 3)
        #expect(cache.lastOwner("app", "1000") == nil)
        cache.noteOwner("u1", app: "app", original: "1000")
        #expect(cache.lastOwner("app", "1000") == "u1")
        #expect(cache.lastOwner("other", "1000") == nil)
        cache.noteOwner("u2", app: "app", original: "1000")
        #expect(cache.lastOwner("app", "1000") == "u2")
        for index in 1...10 { cache.noteOwner("u\(index)", app: "app", original: "2\(index)") }
        let originals: [OriginalTransactionID] = ["1000"] + (1...10).map { "2\($0)" }
        #expect(originals.filter { cache.lastOwner("app", $0) != nil } == ["28", "29", "210"])
        #expect(cache.lastOwner("app", "210") == "u10")
    }

    @Test("new revisions are never 0 (what no revision reads as)", arguments: 0..<5)
    func revisions(round: Int) {
        #expect((0..<1_000).allSatisfy { _ in ProjectionCache.newRevision() > 0 })
    }
}
