import EntitleCore
import Foundation

/// An append: whole in one statement when the engine's write path can (``LedgerWritePath/appendWhole(_:encoded:rows:)``),
/// else in a transaction: the path's first steps, then the purchase's link and held events, the fold
/// and the projection, written once for every engine.
extension LedgerRows {
    /// An event whose ID another stored event holds fails with ``StorageError/Code/eventIDTaken``, having
    /// written nothing.
    func append(_ event: LedgerEvent, admit: (@Sendable (SubscriberFacts) -> Bool)?) async throws(StorageError) -> AppendOutcome {
        do {
            return try await appendOnce(event, admit: admit)
        } catch {
            throw error.eventIDTaken(event.id)
        }
    }

    private func appendOnce(_ event: LedgerEvent, admit: (@Sendable (SubscriberFacts) -> Bool)?) async throws(StorageError) -> AppendOutcome {
        let encoded = try await engine.chains.row(event, engine)
        if admit == nil, let outcome = try await writePath.appendWhole(event, encoded: encoded, rows: self) {
            return outcome
        }
        let app = app
        return try await engine.transaction { session throws(StorageError) in
            let start: AppendStart
            switch try await self.writePath.start(event, encoded: encoded, admit: admit, rows: self, session) {
            case .started(let started): start = started
            case .finished(let outcome): return outcome
            }
            guard let sequence = start.sequence else { return .duplicate }
            guard let appUserID = start.appUserID else { return .appended(sequence: sequence, appUserID: nil) }
            var facts = start.facts ?? SubscriberFacts(appUserID: appUserID)
            var applied = 1
            if let original = event.originalTransactionID, start.owner == nil {
                applied += try await self.linkPurchase(original, to: appUserID, at: event.receivedAt, folding: &facts, session)
            }
            facts.apply(event)
            try await self.store(facts, app: app, appUserID: appUserID, addedEvents: applied, at: event.receivedAt, session)
            return .appended(sequence: sequence, appUserID: appUserID)
        }
    }

    /// What an append knows once its event is inserted: its subscriber (if any), the purchase's owner
    /// before it, its sequence (`nil`: a duplicate) and the subscriber's projection.
    struct AppendStart {
        var appUserID: AppUserID?
        var owner: AppUserID?
        var sequence: Int64?
        var facts: SubscriberFacts?
    }

    /// An append's first steps: started, or finished already (a duplicate or a refusal found by an
    /// admission check).
    enum AppendStep {
        case started(AppendStart)
        case finished(AppendOutcome)
    }
}
