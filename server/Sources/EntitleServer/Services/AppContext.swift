import EntitleCore
import EntitleStorage
import Foundation
import Logging

/// What every service of one app shares: its part of the ledger, its catalog and resolver, the clock,
/// the logger and the metrics. One per app a server serves; the services hold it, never a copy.
public final class AppContext: Sendable {
    /// The app this context is for.
    public let bundleID: BundleID
    public let catalog: Catalog
    let resolver: EntitlementResolver
    /// The clock every answer and event is stamped with.
    let now: @Sendable () -> Date
    let logger: Logger
    let metrics: ServerMetrics
    /// Opened once the ledger is migrated; background work waits for it.
    let ledgerReadiness: LedgerReadiness
    /// This server instance's name in job leases.
    let instanceID: String
    /// The events background consumers set aside, kept in the ledger's database.
    let setAsideStore: any SetAsideStore
    /// The trace context each event was appended under, while tracing is on.
    let traces: any TraceContextStore
    /// Runs work a request starts that outlives it (a reconciliation job, an early answer to Apple's
    /// consumption request): graceful shutdown waits for it.
    let work: OwnedWork

    /// Each subscriber's appAccountToken, and which this process registered.
    let accountTokens: AccountTokens
    /// App transactions this process linked to a subscriber (each is linked once; this saves the write).
    let linkedAppTransactions = SeenOnce<String>(capacity: 50_000)

    init(
        bundleID: BundleID, setAsideStore: any SetAsideStore, traces: any TraceContextStore, catalog: Catalog, now: @escaping @Sendable () -> Date, logger: Logger, metrics: ServerMetrics,
        ledgerReadiness: LedgerReadiness, instanceID: String = UUID().uuidString, work: OwnedWork
    ) {
        self.bundleID = bundleID
        self.catalog = catalog
        self.resolver = EntitlementResolver(catalog: catalog)
        self.now = now
        self.logger = logger
        self.metrics = metrics
        self.ledgerReadiness = ledgerReadiness
        self.instanceID = instanceID
        self.setAsideStore = setAsideStore
        self.traces = traces
        self.work = work
        self.accountTokens = AccountTokens(bundleID: bundleID)
    }
}
