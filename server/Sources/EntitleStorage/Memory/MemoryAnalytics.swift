import EntitleAnalytics
import EntitleCore
import Foundation

/// One app's analytics aggregates in memory (``MemoryAnalyticsStore``): each subscriber's cells, their
/// sum, and how far a recompute under way has reached.
struct MemoryAnalytics: Sendable {
    /// The sum of the counted subscribers' cells.
    var aggregates = AnalyticsCells()
    /// Each subscriber's cells as last computed.
    var contributions: [AppUserID: AnalyticsCells] = [:]
    /// The last subscriber a recompute under way has counted (`""`: none yet); `nil` when none is under way.
    var recomputedThrough: AppUserID?
    /// The definitions the aggregates were last computed under.
    var definitionsVersion: Int?

    /// Whether a recompute under way has yet to reach `appUserID` (its cells aren't counted).
    func uncounted(_ appUserID: AppUserID) -> Bool {
        guard let through = recomputedThrough else { return false }
        return MemoryLedger.byteOrder(through, appUserID)
    }

    /// Computes `appUserID`'s cells from all their events and adds to the aggregates what changed from
    /// those counted before (all of them when `counted` is false).
    mutating func recompute(_ appUserID: AppUserID, events: [LedgerEvent], counted: Bool, cells: (AppUserID, [LedgerEvent]) -> AnalyticsCells) {
        let computed = cells(appUserID, events)
        let previous = counted ? contributions[appUserID] ?? [:] : [:]
        aggregates.add(computed.difference(from: previous))  // drops the cells that reach zero
        contributions[appUserID] = computed.isEmpty ? nil : computed
    }
}
