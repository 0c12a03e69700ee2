import AppStoreModels
import AppStoreServerAPI
import AppStoreVerification
import EntitleAnalytics
import EntitleCore
import EntitleStorage
import EntitleWire
import Foundation
import Logging

/// One app's services, each named for what it does and sharing the app's ``AppContext``. A
/// controller takes the services of its resource; background work the ones it drives.
public final class AppServices: Sendable {
    public let context: AppContext
    /// Verify, append, link.
    public let ingestion: IngestionService
    /// Answers, access, usage, identity.
    public let subscribers: SubscriberService
    /// Grants, overrides, open access, households, timeline, search.
    public let admin: AdminService
    /// The customer list and its export.
    public let customers: CustomerListService
    /// Reconciliation, look-ups, renewal extensions with the App Store Server API.
    public let appStore: AppStoreSyncService
    /// Answers to Apple's consumption requests.
    public let consumption: ConsumptionService
    /// Endpoints, deliveries, publishing.
    public let webhooks: WebhookService
    /// Aggregates, reports, set-aside events, the ledger's backlog.
    public let analytics: AnalyticsService
    /// What the app's paywalls did.
    public let growth: GrowthService
    /// Experiments on offerings, and the offering each subscriber is served.
    public let experiments: ExperimentService
    /// What subscribers register against numeric limits (paired devices).
    public let items: ItemService
    /// Apple's real-time retention message requests.
    public let retention: RetentionService
    /// Every transaction in ledger order, for a data team (docs/exports.md).
    public let exports: TransactionExport
    /// Customers' deletion (docs/deletion.md).
    public let erasure: ErasureService
    /// The audit log of operators' changes.
    public let audit: AuditService

    public init(
        store: any LedgerStore, catalog: Catalog, verifiers: [SignedDataVerifier], restorePolicy: RestorePolicy = .keepWithOriginal,
        metrics: ServerMetrics = ServerMetrics(), now: @escaping @Sendable () -> Date, logger: Logger,
        serverAPI: AppStoreServerAPIClient? = nil, offerKey: InAppPurchaseKey? = nil, ledgerReadiness: LedgerReadiness = .ready,
        work: OwnedWork = OwnedWork(), exchangeRates: ExchangeRates? = nil, webhookLease: TimeInterval = WebhookService.defaultLease
    ) {
        let context = AppContext(
            bundleID: store.app, setAsideStore: store.setAsideStore(), traces: store.traceContextStore(), catalog: catalog, now: now, logger: logger, metrics: metrics,
            ledgerReadiness: ledgerReadiness, work: work)
        self.context = context
        // The one place that holds the whole ledger: each service is given the roles it uses.
        subscribers = SubscriberService(context: context, events: store, projections: store, identity: store, offerKey: offerKey)
        consumption = ConsumptionService(
            context: context, projections: store, identity: store, cursors: store, leases: store, serverAPI: serverAPI)
        ingestion = IngestionService(
            context: context, events: store, projections: store, identity: store, verifiers: verifiers, restorePolicy: restorePolicy,
            subscribers: subscribers, consumption: consumption)
        admin = AdminService(context: context, events: store, projections: store, identity: store, subscribers: subscribers)
        customers = CustomerListService(context: context, projections: store)
        appStore = AppStoreSyncService(
            context: context, events: store, projections: store, identity: store, leases: store, adminJobs: store.adminJobStore(),
            importJobs: store.importJobStore(), serverAPI: serverAPI, ingestion: ingestion, subscribers: subscribers)
        webhooks = WebhookService(
            context: context, events: store, projections: store, identity: store, cursors: store, feed: store, leases: store,
            webhookStore: store.webhookStore(), lease: webhookLease)
        analytics = AnalyticsService(
            context: context, events: store, health: store, analytics: store.analyticsStore(), exchangeRates: exchangeRates,
            defaultScope: verifiers.contains { $0.configuration.environment == .production } ? .production : .all)
        growth = GrowthService(context: context, events: store, projections: store, identity: store)
        experiments = ExperimentService(context: context, events: store, projections: store, identity: store, analytics: analytics)
        items = ItemService(context: context, events: store, projections: store, identity: store)
        retention = RetentionService(context: context, projections: store, identity: store, verifiers: verifiers, offerKey: offerKey)
        exports = TransactionExport(catalog: catalog, feed: store, identity: store)
        audit = AuditService(context: context, log: store.auditLog())
        erasure = ErasureService(context: context, projections: store, identity: store, erasing: store, webhooks: webhooks)
    }

    /// The app these services are for.
    public var bundleID: BundleID { context.bundleID }
    public var catalog: Catalog { context.catalog }
}
