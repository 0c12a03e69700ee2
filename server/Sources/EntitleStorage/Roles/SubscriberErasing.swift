import EntitleCore
import Foundation

/// Customers' deletion: a customer's events erased as ``SubscriberErasure`` says, in one transaction with
/// everything kept beside them (projections, purchase links, tokens, aliases, analytics contributions,
/// webhook snapshots, deliveries and schedule).
public protocol SubscriberErasing: Sendable {
    /// Erases `erasure.subject`: their events and every other subscriber's event that names them are
    /// rewritten (``SubscriberErasure/erasingOwn(_:)``, ``SubscriberErasure/renaming(_:)-(LedgerEvent)``),
    /// `eventID` records the erasure on the pseudonym's timeline, and the projections of everyone touched
    /// are folded again. Purchases and analytics contributions move to the pseudonym; appAccountTokens,
    /// aliases, undelivered and delivered webhooks and scheduled reminders of the subject are dropped. `nil` when
    /// nothing is known of the subject (no event, projection or alias).
    func erase(_ erasure: SubscriberErasure, eventID: UUID) async throws(StorageError) -> ErasureOutcome?
}

/// What a customer's erasure rewrote.
public struct ErasureOutcome: Sendable, Hashable {
    /// The customer's own events, now the pseudonym's.
    public var events: Int
    /// Other subscribers' events that named the customer.
    public var mentions: Int
    /// The other subscribers whose projections were folded again, sorted.
    public var others: [AppUserID]

    public init(events: Int, mentions: Int, others: [AppUserID]) {
        self.events = events
        self.mentions = mentions
        self.others = others
    }
}
