import EntitleAnalytics
import EntitleCore
import Testing

@testable import EntitleStorage

/// Each app's aggregate cells kept by revision.
@Suite("Aggregate cache")
struct AggregateCacheTests {
    static let revenue = AnalyticsKey(day: 20_500, metric: .revenue, product: "monthly", currency: "USD")
    static let active = AnalyticsKey(day: 20_510, metric: .activePaid, product: "monthly")
    static let later = AnalyticsKey(day: 20_540, metric: .expirations, product: "monthly")

    @Test("kept cells are given back only for the revision they were kept with, only to their app, and never for revision 0")
    func byRevision() {
        let cache = AggregateCache()
        let cells: AnalyticsCells = [Self.revenue: 7_990, Self.active: 1]
        #expect(cache.cells("app", revision: 7, through: nil) == nil)
        cache.keep(cells, revision: 7, app: "app")
        #expect(cache.cells("app", revision: 7, through: nil) == cells)
        #expect(cache.cells("app", revision: 8, through: nil) == nil)
        #expect(cache.cells("other", revision: 7, through: nil) == nil)
        cache.keep([Self.revenue: 1], revision: 9, app: "app")
        #expect(cache.cells("app", revision: 7, through: nil) == nil)
        #expect(cache.cells("app", revision: 9, through: nil) == [Self.revenue: 1])
        cache.keep(cells, revision: 0, app: "none")
        #expect(cache.cells("none", revision: 0, through: nil) == nil)
    }

    @Test("a read through a day gives the cells up to it", arguments: [(20_499, 0), (20_500, 1), (20_539, 2), (20_540, 3), (30_000, 3)])
    func throughDay(day: Int, count: Int) {
        let cache = AggregateCache()
        cache.keep([Self.revenue: 7_990, Self.active: 1, Self.later: 1], revision: 3, app: "app")
        let cells = cache.cells("app", revision: 3, through: day)
        #expect(cells?.count == count)
        #expect(cells?.keys.allSatisfy { $0.day <= day } == true)
    }

    @Test("advancing from the kept revision adds the change (cells reaching zero dropped, later days readable); from another, it leaves them")
    func advance() {
        let cache = AggregateCache()
        cache.keep([Self.revenue: 7_990, Self.active: 1], revision: 3, app: "app")
        cache.advance("app", from: 3, to: 4, adding: [Self.active: -1, Self.later: 1, Self.revenue: 10])
        #expect(cache.cells("app", revision: 3, through: nil) == nil)
        #expect(cache.cells("app", revision: 4, through: nil) == [Self.revenue: 8_000, Self.later: 1])
        #expect(cache.cells("app", revision: 4, through: 20_540) == [Self.revenue: 8_000, Self.later: 1])
        #expect(cache.cells("app", revision: 4, through: 20_539) == [Self.revenue: 8_000])

        // A change from a revision these cells are not of (another instance wrote in between).
        cache.advance("app", from: 5, to: 6, adding: [Self.revenue: 1])
        #expect(cache.cells("app", revision: 6, through: nil) == nil)
        #expect(cache.cells("app", revision: 4, through: nil) == [Self.revenue: 8_000, Self.later: 1])
        // Nothing kept for the app: nothing to advance.
        cache.advance("other", from: 0, to: 1, adding: [Self.revenue: 1])
        #expect(cache.cells("other", revision: 1, through: nil) == nil)
    }

    @Test("new revisions are never 0 (what no revision reads as)", arguments: 0..<5)
    func revisions(round: Int) {
        #expect((0..<1_000).allSatisfy { _ in AggregateCache.newRevision() > 0 })
    }
}
