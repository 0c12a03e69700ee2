import EntitleCore
import Foundation

/// The event log: immutable events, appended idempotently and read back in the order they were
/// stored.
///
/// - `append` is idempotent by the event's idempotency key, and durable when it returns.
/// - An event is applied to its subscriber's projection in the same transaction that stores it;
///   writers to one subscriber are serialised, so concurrent appends never lose an update.
/// - An event for a purchase not yet linked to a subscriber is held, and applied when the link appears.
public protocol EventLog: Sendable {
    /// Appends `event` unless one with its idempotency key exists. The subscriber is the event's
    /// `appUserID`, else the subscriber its `originalTransactionID` is linked to; when the event
    /// names both and the purchase isn't linked yet, the link is made and held events are applied.
    func append(_ event: LedgerEvent) async throws(StorageError) -> AppendOutcome

    /// Appends `event` only if `admit` accepts the subscriber's projection as it stands inside the
    /// append's transaction (a quota check, say), so the check and the write are atomic even with
    /// several server instances. A duplicate is reported as such without asking `admit`.
    func append(_ event: LedgerEvent, admitting admit: @escaping @Sendable (SubscriberFacts) -> Bool) async throws(StorageError) -> AppendOutcome

    /// Appends `events` in order, in one transaction, each exactly as ``append(_:)`` would (so the
    /// outcomes are those of appending them one by one), storing each subscriber's projection once: for
    /// imports and backfills of many events. Batches running side by side should not share subscribers
    /// or purchases (PostgreSQL may refuse one of two batches that lock the same ones in other orders).
    func append(contentsOf events: [LedgerEvent]) async throws(StorageError) -> [AppendOutcome]

    /// The latest stored event of `source` that belongs to no subscriber (global settings such as the
    /// open-access switch).
    func latestGlobalEvent(source: LedgerEventSource) async throws(StorageError) -> LedgerEvent?

    /// Every stored event of `source` that belongs to no subscriber, in the order they were stored
    /// (an experiment's versions, say).
    func globalEvents(source: LedgerEventSource) async throws(StorageError) -> [LedgerEvent]

    /// A subscriber's events, in the order they were stored, whole (with the signed payload as
    /// received). The other reads of events, made for folding and by consumers, leave
    /// `rawSignedPayload` out (`nil`): it is kept apart from the decoded event, for audit.
    func events(appUserID: AppUserID) async throws(StorageError) -> [LedgerEvent]

    /// The events of `appUserIDs` stored after the ledger position `sequence` (as a consumer's
    /// ``ConsumerCursors/consumerEvents(_:limit:since:)`` gives it), each with its owner, in the order
    /// they were stored.
    func events(
        appUserIDs: Set<AppUserID>, after sequence: Int64
    ) async throws(StorageError) -> [(sequence: Int64, appUserID: AppUserID, event: LedgerEvent)]

    /// Events held for a purchase not linked to any subscriber yet.
    func heldEvents(originalTransactionID: OriginalTransactionID) async throws(StorageError) -> [LedgerEvent]

    /// How many events wait, across all purchases, for a subscriber to own them.
    func heldEventCount() async throws(StorageError) -> Int

    /// The purchases (original transaction IDs) with events held for want of an owner, sorted.
    func heldPurchases() async throws(StorageError) -> [OriginalTransactionID]

    /// How many events the ledger holds.
    func eventCount() async throws(StorageError) -> Int
}
