import EntitleAnalytics
import EntitleCore

/// What one transaction did to an app's aggregates: added `delta` to the rows, which were at revision
/// `from` (0: none stored), and stored revision `to`.
struct AggregateChange: Sendable {
    let from: Int64
    let to: Int64
    let delta: AnalyticsCells

    /// Brings the cells `aggregates` keeps of `app` at `from` to `to`; once the transaction committed.
    func apply(to aggregates: AggregateCache, app: BundleID) {
        aggregates.advance(app, from: from, to: to, adding: delta)
    }
}
