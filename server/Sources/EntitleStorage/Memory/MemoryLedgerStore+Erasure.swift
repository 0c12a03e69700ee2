import EntitleCore
import Foundation

/// Customers' deletion (``SubscriberErasing``): the ledger's part in ``MemoryLedger``, the stores beside
/// it here, in one transaction.
extension MemoryLedgerStore {
    public func erase(_ erasure: SubscriberErasure, eventID: UUID) async throws(StorageError) -> ErasureOutcome? {
        let app = app
        return database.transaction { state in
            var ledger = state.ledgers[app] ?? MemoryLedger()
            guard let outcome = ledger.erase(erasure, eventID: eventID, sequence: &state.nextSequence) else { return nil }
            state.ledgers[app] = ledger
            let (subject, pseudonym) = (erasure.subject, erasure.pseudonym)
            if let cells = state.analytics[app]?.contributions.removeValue(forKey: subject) {
                state.analytics[app]?.contributions[pseudonym] = cells
            }
            state.setAside[app] = state.setAside[app]?.map { event in
                var event = event
                if event.appUserID == subject { event.appUserID = pseudonym }
                return event
            }
            let (named, renamed) = (AuditEntry.jsonText(of: subject.rawValue), AuditEntry.jsonText(of: pseudonym.rawValue))
            state.audit[app] = state.audit[app]?.map { entry in
                var entry = entry
                if entry.subject == subject.rawValue { entry.subject = pseudonym.rawValue }
                entry.request = entry.request?.replacingOccurrences(of: named, with: renamed)
                return entry
            }
            if var webhooks = state.webhooks[app] {
                let dropped = webhooks.deliveries.filter { $0.appUserID == subject }
                webhooks.deliveries.removeAll { $0.appUserID == subject }
                for delivery in dropped {
                    webhooks.attempts[delivery.id] = nil
                    webhooks.deliveryKeys.remove(MemoryWebhooks.deliveryKey(delivery))
                }
                webhooks.schedule = webhooks.schedule.filter { $0.key.appUserID != subject }
                if let snapshot = webhooks.snapshots.removeValue(forKey: subject) {
                    webhooks.snapshots[pseudonym] = WebhookSnapshot(facts: erasure.erasingOwn(snapshot.facts), at: snapshot.at)
                }
                for other in outcome.others {
                    if let snapshot = webhooks.snapshots[other] {
                        webhooks.snapshots[other] = WebhookSnapshot(facts: erasure.renaming(snapshot.facts), at: snapshot.at)
                    }
                }
                state.webhooks[app] = webhooks
            }
            return outcome
        }
    }
}
