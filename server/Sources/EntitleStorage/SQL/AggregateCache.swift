import EntitleAnalytics
import EntitleCore
import NIOConcurrencyHelpers

/// Each app's aggregate cells, kept with the revision they are the cells of: a read that finds the
/// stored revision (`analytics_revisions`) equal to the kept one uses the kept cells instead of
/// reading and decoding every aggregate row again.
///
/// Every write of an app's aggregates stores a new random revision in its transaction, so a kept
/// entry matches only the state it was read or computed from, whichever instance wrote since:
/// nothing here can be stale, only missing. One entry per app.
final class AggregateCache: Sendable {
    private struct Entry {
        var revision: Int64
        var cells: AnalyticsCells
        /// No cell is on a later day, so a read through it or after needn't filter.
        var lastDay: Int
    }

    private let entries = NIOLockedValueBox<[BundleID: Entry]>([:])

    init() {}

    /// The cells kept for `app` if they are those of `revision` (none for 0, no revision), those of
    /// days up to `day` (all when `nil`).
    func cells(_ app: BundleID, revision: Int64, through day: Int?) -> AnalyticsCells? {
        guard revision != 0, let entry = entries.withLockedValue({ $0[app] }), entry.revision == revision else { return nil }
        guard let day, day < entry.lastDay else { return entry.cells }
        return entry.cells.filter { $0.key.day <= day }
    }

    /// Keeps `cells` as `app`'s cells of `revision` (nothing for 0).
    func keep(_ cells: AnalyticsCells, revision: Int64, app: BundleID) {
        guard revision != 0 else { return }
        let entry = Entry(revision: revision, cells: cells, lastDay: cells.keys.lazy.map(\.day).max() ?? .min)
        entries.withLockedValue { $0[app] = entry }
    }

    /// Moves `app`'s kept cells from revision `from` to `to` by adding `delta`, as the write that
    /// stored `to` added it to the rows. Cells kept for another revision are left as they are (the
    /// next read replaces them).
    func advance(_ app: BundleID, from: Int64, to: Int64, adding delta: AnalyticsCells) {
        entries.withLockedValue { entries in
            // Taken out while it changes, so its cells are updated in place rather than copied.
            guard var entry = entries.removeValue(forKey: app) else { return }
            if entry.revision == from, to != 0 {
                entry.cells.add(delta)
                entry.revision = to
                entry.lastDay = max(entry.lastDay, delta.keys.lazy.map(\.day).max() ?? .min)
            }
            entries[app] = entry
        }
    }

    /// A new revision: random, never 0.
    static func newRevision() -> Int64 { Int64.random(in: 1...Int64.max) }
}
