import EntitleCore
import Foundation

/// The projections (``ProjectionStore``), kept decoded.
extension MemoryLedgerStore {
    public func projection(appUserID: AppUserID) async throws(StorageError) -> SubscriberFacts? {
        database.read(app) { ledger in ledger.projections[appUserID]?.facts }
    }

    public func projection(
        appUserID: AppUserID, latestGlobalEvent source: LedgerEventSource
    ) async throws(StorageError) -> (facts: SubscriberFacts?, global: LedgerEvent?) {
        database.read(app) { ledger in
            (ledger.projections[appUserID]?.facts, ledger.latestGlobalEvent(source).map { Self.bare($0.event) })
        }
    }

    public func projections(appUserIDs: Set<AppUserID>) async throws(StorageError) -> [AppUserID: SubscriberFacts] {
        database.read(app) { ledger in
            var found: [AppUserID: SubscriberFacts] = [:]
            for id in appUserIDs { if let facts = ledger.projections[id]?.facts { found[id] = facts } }
            return found
        }
    }

    public func recentSubscribers(limit: Int, after cursor: RecentSubscriber.Cursor?) async throws(StorageError) -> [RecentSubscriber] {
        let limit = min(max(limit, 1), 1_000)
        return database.read(app) { ledger in
            let recent = ledger.projections.map { RecentSubscriber(appUserID: $0.key, facts: $0.value.facts, updatedAt: $0.value.updatedAt) }
                .filter { subscriber in
                    guard let cursor else { return true }
                    return subscriber.updatedAt < cursor.updatedAt
                        || (subscriber.updatedAt == cursor.updatedAt && MemoryLedger.byteOrder(subscriber.appUserID, cursor.appUserID))
                }
                .sorted { $0.updatedAt != $1.updatedAt ? $0.updatedAt > $1.updatedAt : MemoryLedger.byteOrder($1.appUserID, $0.appUserID) }
            return Array(recent.prefix(limit))
        }
    }

    public func subscriberIDs() async throws(StorageError) -> [AppUserID] {
        database.read(app) { ledger in ledger.projections.keys.sorted(by: MemoryLedger.byteOrder) }
    }

    public func subscriberIDs(startingWith prefix: String, limit: Int) async throws(StorageError) -> [AppUserID] {
        let limit = min(max(limit, 1), 1_000)
        return database.read(app) { ledger in
            Array(ledger.projections.keys.filter { $0.rawValue.utf8.starts(with: prefix.utf8) }.sorted(by: MemoryLedger.byteOrder).prefix(limit))
        }
    }

    public func projections(after cursor: AppUserID?, limit: Int) async throws(StorageError) -> [(appUserID: AppUserID, facts: SubscriberFacts)] {
        let limit = min(max(limit, 1), 1_000)
        return database.read(app) { ledger in
            let ids = ledger.projections.keys.filter { id in cursor.map { MemoryLedger.byteOrder($0, id) } ?? true }
                .sorted(by: MemoryLedger.byteOrder).prefix(limit)
            return ids.compactMap { id in ledger.projections[id].map { (id, $0.facts) } }
        }
    }

    public func rebuildProjections() async throws(StorageError) -> Int {
        try await rebuildProjections(keepingDifferences: 0).rebuilt
    }

    public func rebuildProjections(keepingDifferences limit: Int) async throws(StorageError) -> ProjectionRebuild {
        database.ledger(app) { ledger, _ in ledger.rebuildProjections(keepingDifferences: limit) }
    }
}
