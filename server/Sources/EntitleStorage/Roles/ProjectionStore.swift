import EntitleCore
import Foundation

/// The subscribers' projections: each the fold of their events, written in the transaction that
/// appends an event (``EventLog``), and rebuilt from the log on request.
public protocol ProjectionStore: Sendable {
    /// A subscriber's projection: the fold of their events; `nil` for an unknown subscriber.
    func projection(appUserID: AppUserID) async throws(StorageError) -> SubscriberFacts?

    /// A subscriber's projection (`nil` for an unknown subscriber) and the latest global event of
    /// `source`, read in one statement: what every answer about a subscriber reads.
    func projection(
        appUserID: AppUserID, latestGlobalEvent source: LedgerEventSource
    ) async throws(StorageError) -> (facts: SubscriberFacts?, global: LedgerEvent?)

    /// The projections of those of `appUserIDs` that have one, read together.
    func projections(appUserIDs: Set<AppUserID>) async throws(StorageError) -> [AppUserID: SubscriberFacts]

    /// Up to `limit` subscribers, the most recently updated first (by their latest event's arrival, then
    /// appUserID), from after `cursor` (the last one of a previous page) on.
    func recentSubscribers(limit: Int, after cursor: RecentSubscriber.Cursor?) async throws(StorageError) -> [RecentSubscriber]

    /// Every subscriber with a projection, sorted.
    func subscriberIDs() async throws(StorageError) -> [AppUserID]

    /// Up to `limit` subscribers whose ID starts with `prefix`, in the byte order of their IDs: a range
    /// of an index, whatever the number of subscribers.
    func subscriberIDs(startingWith prefix: String, limit: Int) async throws(StorageError) -> [AppUserID]

    /// Up to `limit` subscribers' projections in the byte order of their IDs, from after `cursor` (the
    /// last ID of the previous page; `nil`: from the first): a range of an index, so a pass over every
    /// subscriber holds one page at a time, whatever their number. What it reads is not kept in the
    /// shared cache (a pass would push out what reads keep).
    func projections(after cursor: AppUserID?, limit: Int) async throws(StorageError) -> [(appUserID: AppUserID, facts: SubscriberFacts)]

    /// Recomputes every projection from the ledger; returns how many subscribers were rebuilt.
    func rebuildProjections() async throws(StorageError) -> Int

    /// Recomputes every projection from the ledger, page by page (memory does not grow with the
    /// ledger), and says how many differed from the ones they replaced, naming up to `limit` of them.
    func rebuildProjections(keepingDifferences limit: Int) async throws(StorageError) -> ProjectionRebuild
}
