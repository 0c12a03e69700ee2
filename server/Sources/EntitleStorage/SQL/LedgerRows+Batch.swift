import EntitleCore
import Foundation

/// Appends of many events in one transaction: each event goes through the same steps as a single
/// append (locks, owner, idempotent insert, purchase link and held events), and each subscriber's
/// projection is folded in memory and stored once, at the end. A batch with an event whose ID another
/// stored event (or an earlier one of the batch) holds fails with ``StorageError/Code/eventIDTaken``,
/// having written nothing.
extension LedgerRows {
    func append(contentsOf events: [LedgerEvent]) async throws(StorageError) -> [AppendOutcome] {
        do {
            return try await appendOnce(contentsOf: events)
        } catch {
            throw error.eventIDTaken(nil)
        }
    }

    private func appendOnce(contentsOf events: [LedgerEvent]) async throws(StorageError) -> [AppendOutcome] {
        guard !events.isEmpty else { return [] }
        var encoded: [StoredEventRow] = []
        encoded.reserveCapacity(events.count)
        for event in events { encoded.append(try await engine.chains.row(event, engine)) }
        let app = app
        let rows = encoded
        return try await engine.transaction { session throws(StorageError) in
            var folded: [AppUserID: (facts: SubscriberFacts, added: Int, at: Date)] = [:]
            var order: [AppUserID] = []
            var outcomes: [AppendOutcome] = []
            outcomes.reserveCapacity(events.count)
            for (event, row) in zip(events, rows) {
                let start: AppendStart
                switch try await self.writePath.start(event, encoded: row, admit: nil, rows: self, session) {
                case .started(let started): start = started
                case .finished(let outcome):
                    outcomes.append(outcome)
                    continue
                }
                guard let sequence = start.sequence else {
                    outcomes.append(.duplicate)
                    continue
                }
                guard let appUserID = start.appUserID else {
                    outcomes.append(.appended(sequence: sequence, appUserID: nil))
                    continue
                }
                // Read once per subscriber: later events of the batch fold onto the copy in memory.
                var entry = folded[appUserID] ?? (start.facts ?? SubscriberFacts(appUserID: appUserID), 0, event.receivedAt)
                if folded[appUserID] == nil { order.append(appUserID) }
                var applied = 1
                if let original = event.originalTransactionID, start.owner == nil {
                    applied += try await self.linkPurchase(original, to: appUserID, at: event.receivedAt, folding: &entry.facts, session)
                }
                entry.facts.apply(event)
                entry.added += applied
                entry.at = max(entry.at, event.receivedAt)
                folded[appUserID] = entry
                outcomes.append(.appended(sequence: sequence, appUserID: appUserID))
            }
            for appUserID in order {
                guard let entry = folded[appUserID] else { continue }
                try await self.store(entry.facts, app: app, appUserID: appUserID, addedEvents: entry.added, at: entry.at, session)
            }
            return outcomes
        }
    }
}
