import EntitleCore
import Foundation

/// Appends (``EventLog``): in one statement when the engine has a routine for it, else statement by statement.
extension SQLLedgerStore {
    func append(_ event: LedgerEvent) async throws(StorageError) -> AppendOutcome {
        try await rows.append(event, admit: nil)
    }

    func append(_ event: LedgerEvent, admitting admit: @escaping @Sendable (SubscriberFacts) -> Bool) async throws(StorageError) -> AppendOutcome {
        try await rows.append(event, admit: admit)
    }

    func append(contentsOf events: [LedgerEvent]) async throws(StorageError) -> [AppendOutcome] {
        try await rows.append(contentsOf: events)
    }

}
