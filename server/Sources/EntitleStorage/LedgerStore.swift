import EntitleCore
import Foundation

/// One app's ledger in a database: the event log, the projections, identity, consumers' cursors and
/// job leases, its health (each a role a service names on its own), and the stores kept beside it
/// (``companions``), with an SQLite and a PostgreSQL implementation.
///
/// Guarantees every implementation keeps (and the conformance suite checks on each), beside each
/// role's own:
/// - A store is one app's (by bundle ID): every read and write is confined to it, so apps sharing a
///   database never see each other's events, subscribers, purchases or analytics.
/// - ``migrate()`` runs before anything else reads or writes.
public protocol LedgerStore: EventLog, ProjectionStore, IdentityStore, ConsumerCursors, LedgerFeed, JobLeases, LedgerHealth, SubscriberErasing {
    /// The app this store reads and writes: a bundle ID, or `""` for rows written before apps existed.
    var app: BundleID { get }

    /// The same database, confined to `app`. Closing either closes the database.
    func forApp(_ app: BundleID) -> any LedgerStore

    /// Every app with events or subscribers in the database, sorted (`""` for rows no app adopted yet).
    func appIDs() async throws(StorageError) -> [BundleID]

    /// Creates the schema or brings it to the current version. A store of an app then adopts the
    /// rows written before apps existed (schema version 4 and older): they become its app's.
    func migrate() async throws(StorageError)

    /// The other stores kept in the same database (analytics, webhooks, keys…).
    var companions: any CompanionStores { get }

    /// Releases connections. The store is unusable afterwards.
    func close() async
}

extension LedgerStore {
    /// The analytics aggregates kept in the same database, a consumer of this ledger.
    public func analyticsStore() -> any AnalyticsStore { companions.analyticsStore() }
    /// The events this app's background consumers set aside.
    public func setAsideStore() -> any SetAsideStore { companions.setAsideStore() }
    /// The app's webhooks: endpoints, deliveries, the schedule.
    public func webhookStore() -> any WebhookStore { companions.webhookStore() }
    /// The API keys (of every app).
    public func keyStore() -> any KeyStore { companions.keyStore() }
    /// The app's admin jobs.
    public func adminJobStore() -> any AdminJobStore { companions.adminJobStore() }
    /// The app's customer imports.
    public func importJobStore() -> any ImportJobStore { companions.importJobStore() }
    /// The app's audit log of operators' changes (append-only).
    public func auditLog() -> any AuditLog { companions.auditLog() }
    /// The dashboard's sign-ins (server-wide).
    public func dashboardSessionStore() -> any DashboardSessionStore { companions.dashboardSessionStore() }
    public func dashboardAccountStore() -> any DashboardAccountStore { companions.dashboardAccountStore() }
    public func passkeyStore() -> any PasskeyStore { companions.passkeyStore() }
    public func traceContextStore() -> any TraceContextStore { companions.traceContextStore() }
}
