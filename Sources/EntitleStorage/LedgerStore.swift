import EntitleCore
import Foundation

/// The ledger of immutable events and the subscribers' projections, behind one interface with an
/// SQLite and a PostgreSQL implementation.
///
/// Guarantees every implementation keeps (and the conformance suite checks on each):
/// - `append` is idempotent by the event's idempotency key, and durable when it returns.
/// - An event is applied to its subscriber's projection in the same transaction that stores it;
///   writers to one subscriber are serialised, so concurrent appends never lose an update.
/// - An event for a purchase not yet linked to a subscriber is held, and applied when the link appears.
/// - A store is one app's (by bundle ID): every read and write is confined to it, so apps sharing a
///   database never see each other's events, subscribers, purchases or analytics.
public protocol LedgerStore: Sendable {
    /// The app this store reads and writes: a bundle ID, or `""` for rows written before apps existed.
    var app: String { get }

    /// The same database, confined to `app`. Closing either closes the database.
    func forApp(_ app: String) -> any LedgerStore

    /// Registers `token` as `appUserID`'s appAccountToken (idempotent), and links to the subscriber every
    /// purchase that arrived with that token before anyone owned it. A token another subscriber holds
    /// is not moved.
    func registerAccountToken(_ token: UUID, appUserID: String, at: Date) async throws(StorageError) -> AccountTokenRegistration

    /// The subscriber `token` is registered for.
    func accountTokenOwner(_ token: UUID) async throws(StorageError) -> String?

    /// Merges the anonymous subscriber `anonymous` into `known` (a log-in), in one transaction: a
    /// `subscriberMerged` event on each (the known one's carrying the anonymous facts), the anonymous
    /// purchases and appAccountTokens moved, and `anonymous` made an alias of `known`. Idempotent; two
    /// log-ins at once serialise on the subscribers' locks.
    func merge(anonymous: String, into known: String, at: Date) async throws(StorageError) -> MergeOutcome

    /// The subscriber `appUserID` was merged into, if it was.
    func aliasTarget(_ appUserID: String) async throws(StorageError) -> String?

    /// Every app with events or subscribers in the database, sorted (`""` for rows no app adopted yet).
    func appIDs() async throws(StorageError) -> [String]

    /// Creates the schema or brings it to the current version. A store of an app then adopts the
    /// rows written before apps existed (schema version 4 and older): they become its app's.
    func migrate() async throws(StorageError)

    /// Appends `event` unless one with its idempotency key exists. The subscriber is the event's
    /// `appUserID`, else the subscriber its `originalTransactionID` is linked to; when the event
    /// names both and the purchase isn't linked yet, the link is made and held events are applied.
    func append(_ event: LedgerEvent) async throws(StorageError) -> AppendOutcome

    /// Appends `event` only if `admit` accepts the subscriber's projection as it stands inside the
    /// append's transaction (a quota check, say), so the check and the write are atomic even with
    /// several server instances. A duplicate is reported as such without asking `admit`.
    func append(_ event: LedgerEvent, admitting admit: @escaping @Sendable (SubscriberFacts) -> Bool) async throws(StorageError) -> AppendOutcome

    /// Moves a purchase to `appUserID` (a restore onto another account): the link moves, the previous
    /// owner's projection loses the purchase and the new owner's gains it, each side recording an
    /// event, all in one transaction. Returns the previous owner (`nil` when none: nothing moves).
    func transfer(originalTransactionID: String, to appUserID: String, at: Date) async throws(StorageError) -> String?

    /// The latest stored event of `source` that belongs to no subscriber (global settings such as the
    /// open-access switch).
    func latestGlobalEvent(source: LedgerEventSource) async throws(StorageError) -> LedgerEvent?

    /// A subscriber's events, in the order they were stored, whole (with the signed payload as
    /// received). The other reads of events, made for folding and by consumers, leave
    /// `rawSignedPayload` out (`nil`): it is kept apart from the decoded event, for audit.
    func events(appUserID: String) async throws(StorageError) -> [LedgerEvent]

    /// The events of `appUserIDs` stored after the ledger position `sequence` (as a consumer's
    /// ``consumerEvents(_:limit:since:)`` gives it), each with its owner, in the order they were stored.
    func events(
        appUserIDs: Set<String>, after sequence: Int64
    ) async throws(StorageError) -> [(sequence: Int64, appUserID: String, event: LedgerEvent)]

    /// Events held for a purchase not linked to any subscriber yet.
    func heldEvents(originalTransactionID: String) async throws(StorageError) -> [LedgerEvent]

    /// How many events wait, across all purchases, for a subscriber to own them.
    func heldEventCount() async throws(StorageError) -> Int

    /// The purchases (original transaction IDs) with events held for want of an owner, sorted.
    func heldPurchases() async throws(StorageError) -> [String]

    /// A subscriber's projection: the fold of their events; `nil` for an unknown subscriber.
    func projection(appUserID: String) async throws(StorageError) -> SubscriberFacts?

    /// A subscriber's projection (`nil` for an unknown subscriber) and the latest global event of
    /// `source`, read in one statement: what every answer about a subscriber reads.
    func projection(
        appUserID: String, latestGlobalEvent source: LedgerEventSource
    ) async throws(StorageError) -> (facts: SubscriberFacts?, global: LedgerEvent?)

    /// The projections of those of `appUserIDs` that have one, read together.
    func projections(appUserIDs: Set<String>) async throws(StorageError) -> [String: SubscriberFacts]

    /// The subscriber a purchase is linked to.
    func owner(originalTransactionID: String) async throws(StorageError) -> String?

    /// The owners of those of `originalTransactionIDs` that are linked to a subscriber.
    func owners(originalTransactionIDs: Set<String>) async throws(StorageError) -> [String: String]

    /// Every subscriber with a projection, sorted.
    func subscriberIDs() async throws(StorageError) -> [String]

    /// Recomputes every projection from the ledger; returns how many subscribers were rebuilt.
    func rebuildProjections() async throws(StorageError) -> Int

    /// The analytics aggregates kept in the same database, a consumer of this ledger.
    func analyticsStore() -> any AnalyticsStore

    /// The events this app's background consumers set aside, kept in the same database.
    func setAsideStore() -> any SetAsideStore

    /// The app's webhooks kept in the same database: endpoints, deliveries, the schedule.
    func webhookStore() -> any WebhookStore

    /// The API keys kept in the same database (of every app).
    func keyStore() -> any KeyStore

    /// The app's admin jobs (reconciliation passes a request started) kept in the same database.
    func adminJobStore() -> any AdminJobStore

    /// The dashboard's sign-ins kept in the same database (server-wide).
    func dashboardSessionStore() -> any DashboardSessionStore

    /// The app's events past `consumer`'s durable cursor, at most `limit`, in sequence order, never past
    /// an event that may still commit with a smaller sequence. A consumer seen for the first time
    /// starts with the events received at or after `since` (what is older is not its business).
    func consumerEvents(
        _ consumer: String, limit: Int, since: Date
    ) async throws(StorageError) -> (position: Int64, events: [(sequence: Int64, event: LedgerEvent)])

    /// Moves `consumer`'s cursor from `position` to `sequence`; `false` (nothing changed) when another
    /// instance moved it first.
    func advanceConsumer(_ consumer: String, from position: Int64, to sequence: Int64) async throws(StorageError) -> Bool

    /// Takes the lease of the app's job `job` for `holder` until `until`, when no other holder's lease
    /// is current at `now` (the same holder renews its own); `nil` when another holder has it.
    func acquireJob(_ job: String, holder: String, now: Date, until: Date) async throws(StorageError) -> JobLease?

    /// Records a completed run of the leased job: its new mark, and the lease released.
    func completeJob(_ lease: JobLease, mark: Date?) async throws(StorageError)

    /// How many events the ledger holds.
    func eventCount() async throws(StorageError) -> Int

    /// Asks the database for one row as a read asks it (on PostgreSQL, on the calling event loop's
    /// connection when it has them, else a pooled one), reading no table: returns when the ledger
    /// answers reads, throws why it doesn't.
    func ping() async throws(StorageError)

    /// Releases connections. The store is unusable afterwards.
    func close() async
}
