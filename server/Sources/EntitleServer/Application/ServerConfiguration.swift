import AppStoreVerification
import EntitleAnalytics
import EntitleCore
import EntitleStorage
import Foundation
import Hummingbird
import Logging

/// Everything ``buildApplication(configuration:)`` assembles a server from.
public struct ServerConfiguration: Sendable {
    /// Where the ledger comes from.
    public enum Ledger: Sendable {
        /// A database the application opens, migrates before it listens, and closes at shutdown.
        case database(LedgerDatabase)
        /// A store the caller opened, migrated and closes (tests and benchmarks that inspect it).
        case store(any LedgerStore)
    }

    public var http: HTTPConfiguration
    public var ledger: Ledger
    /// The apps served, the primary one first (it adopts rows written before apps existed).
    public var apps: [ServedApp]
    public var keys: APIKeys
    /// Signs subscriber answers for apps to cache (docs/server.md); `nil` leaves them unsigned.
    public var customerInfoSigner: CustomerInfoSigner?
    /// Routes served beside the API (the local App Store's, in `entitle demo`).
    public var extraRoutes: (@Sendable (Router<EntitleRequestContext>) -> Void)?
    public var restorePolicy: RestorePolicy
    /// How often the analytics aggregates are refreshed in the background; `nil` for never (reports
    /// still refresh before they are computed).
    public var analyticsRefreshInterval: Duration?
    /// How often apps with the App Store Server API configured are reconciled (a pass also runs soon
    /// after start); `nil` for never in the background (`POST /v1/reconciliation` and
    /// `entitle reconcile` still run passes).
    public var reconciliationInterval: Duration? = .seconds(3600)
    /// How often apps that answer CONSUMPTION_REQUEST notifications answer what arrived unanswered
    /// (they are also answered as they arrive); `nil` for never in the background.
    public var consumptionInterval: Duration? = .seconds(30)
    /// How often webhooks are published from the ledger and the schedule and sent; `nil` for never in
    /// the background.
    public var webhookInterval: Duration? = .seconds(1)
    /// How long an instance publishing or sending webhooks holds that work without renewing it (each
    /// step, or each round of attempts, renews it): after a crash, another instance, or the restarted
    /// one, takes over within it.
    public var webhookLease: TimeInterval = WebhookService.defaultLease
    public var webhookPolicy = WebhookDeliveryPolicy()
    /// How often running customer imports (`POST /v1/imports/jobs`) are looked for and carried on; `nil` for
    /// never in the background.
    public var importInterval: Duration? = .seconds(1)
    /// The clock webhook signatures are timestamped with; ``now`` when `nil`. A server on a simulated
    /// clock (`entitle demo`) signs with the real one, so receivers can refuse stale requests.
    public var webhookSigningClock: (@Sendable () -> Date)?
    /// Endpoints given on the command line (`--webhook-url`, `--webhook-secret`), for every app they
    /// name (all when they name none); kept in the database like the others while configured.
    public var staticWebhooks: [StaticWebhook] = []
    /// The clock the background loops (analytics refresher, reconciler, consumption responder, webhook
    /// worker, memory trimmer) sleep on between passes; a test drives them with one of its own.
    public var backgroundClock: any Clock<Duration> = ContinuousClock()
    /// How often memory the server freed is given back to the system (``MemoryTrimmer``); `nil` for
    /// never.
    public var memoryTrimInterval: Duration? = .seconds(10)
    public var metrics: ServerMetrics
    /// The cost of the dashboard's password hashes (scrypt; tests lower it).
    public var passwordCost: PasswordHasher.Cost = .standard
    /// The operator's exchange rates: reports add their amounts in one currency (`--exchange-rates`).
    public var exchangeRates: ExchangeRates?
    /// The clock every answer is computed at.
    public var now: @Sendable () -> Date
    public var logger: Logger
    /// Called once the server listens, with the port it is bound to.
    public var onServerRunning: @Sendable (_ port: Int) async -> Void

    public init(
        http: HTTPConfiguration, ledger: Ledger, apps: [ServedApp], keys: APIKeys,
        restorePolicy: RestorePolicy = .keepWithOriginal, analyticsRefreshInterval: Duration? = .seconds(5), metrics: ServerMetrics = ServerMetrics(),
        now: @escaping @Sendable () -> Date, logger: Logger, onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in },
        signer: CustomerInfoSigner? = nil
    ) {
        precondition(!apps.isEmpty, "a server serves at least one app")
        self.customerInfoSigner = signer
        self.http = http
        self.ledger = ledger
        self.apps = apps
        self.keys = keys
        self.restorePolicy = restorePolicy
        self.analyticsRefreshInterval = analyticsRefreshInterval
        self.metrics = metrics
        self.now = now
        self.logger = logger
        self.onServerRunning = onServerRunning
    }

    /// One app: its bundle ID is the verifiers' (else the catalog's).
    public init(
        http: HTTPConfiguration, ledger: Ledger, catalog: Catalog, verifiers: [SignedDataVerifier], keys: APIKeys,
        restorePolicy: RestorePolicy = .keepWithOriginal, analyticsRefreshInterval: Duration? = .seconds(5), metrics: ServerMetrics = ServerMetrics(),
        now: @escaping @Sendable () -> Date, logger: Logger, onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in },
        signer: CustomerInfoSigner? = nil
    ) {
        let bundleID = verifiers.first?.configuration.bundleID ?? catalog.bundleID?.rawValue ?? ""
        self.init(
            http: http, ledger: ledger, apps: [ServedApp(bundleID: BundleID(bundleID), catalog: catalog, verifiers: verifiers)], keys: keys,
            restorePolicy: restorePolicy, analyticsRefreshInterval: analyticsRefreshInterval, metrics: metrics, now: now, logger: logger,
            onServerRunning: onServerRunning, signer: signer)
    }
}
