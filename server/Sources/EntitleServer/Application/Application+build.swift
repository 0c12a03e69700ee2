import AppStoreModels
import EntitleAnalytics
import EntitleCore
import EntitleStorage
import EntitleWire
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

extension SubscriberResponse: @retroactive ResponseGenerator {
    /// JSON, signed with the server's customer-info key when it has one (``CustomerInfoSigner``).
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = try SubscriberResponseWriter.json(self).map { Data($0.utf8) } ?? WireJSON.encoder.encode(self)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        if let signer = (context as? EntitleRequestContext)?.signer {
            headers[.entitleCustomerInfoSignature] = try signer.signature(for: body)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
extension AccessResponse: @retroactive ResponseEncodable {}
extension PaywallEventsResponse: @retroactive ResponseEncodable {}
extension ItemsResponse: @retroactive ResponseEncodable {}
extension RealtimeResponseBody: @retroactive ResponseEncodable {}
extension AppTransactionResponse: @retroactive ResponseEncodable {}
extension FinishTransactionResponse: @retroactive ResponseEncodable {}
extension ItemRegistrationResponse: @retroactive ResponseEncodable {}
extension TimelineEvent: @retroactive ResponseEncodable {}
extension PurchaseLookupResponse: @retroactive ResponseEncodable {}
extension OpenAccessResponse: @retroactive ResponseEncodable {}
extension AnalyticsReport: @retroactive ResponseEncodable {}
extension FunnelReport: @retroactive ResponseEncodable {}
extension ExperimentInfo: @retroactive ResponseEncodable {}
extension ExperimentResultsResponse: @retroactive ResponseEncodable {}
extension OfferingsResponse: @retroactive ResponseEncodable {}
extension PromotionalOfferResponse: @retroactive ResponseEncodable {}

/// The server application, as the CLI, `entitle demo` and the tests run it: the router over each
/// served app's services (ServedApps), and every long-running part as a `Service` of the application — the
/// database client, the analytics refresher, the ledger's closing — with the ledger migrated (and, on
/// PostgreSQL, the event loops' read connections opened) before the server listens. Graceful shutdown stops the server first and closes the ledger last.
public func buildApplication(configuration: ServerConfiguration) async throws -> some ApplicationProtocol {
    var services: [any Service] = []
    let store: any LedgerStore
    var migrate = false
    let loopLease: PostgresLoopLease?
    switch configuration.ledger {
    case .database(let database):
        let connection = try await LedgerConnection.open(database, logger: configuration.logger, observer: configuration.metrics.storageObserver)
        configuration.metrics.recordSessionCapacity(LedgerConnection.sessionCapacity(database))
        store = connection.store
        services += connection.services
        migrate = true
        loopLease = connection.loopLease
    case .store(let given):
        store = given
        loopLease = nil
    }
    // Background work waits for the migration below (a given store is its owner's to migrate).
    let readiness = LedgerReadiness(ready: !migrate)
    for app in configuration.apps {
        guard let policy = app.catalog.logInTokens else { continue }
        _ = try LogInTokenVerifier(policy: policy, app: app.bundleID)
        if policy.requiredForAppKeys, !configuration.keys.mintsPublicKeys {
            throw ServiceError(
                .invalidRequest,
                "\(app.bundleID) makes app keys reach known users only through a log-in token, which returns a public key: configure a public-key secret")
        }
    }
    // The work requests start that outlives them (reconciliation passes, early consumption answers),
    // run as a service so shutdown waits for it.
    let work = OwnedWork()
    services.append(work)
    // Each app gets its own services over its part of the ledger.
    let apps = ServedApps(services: configuration.apps.map { app in
        AppServices(
            store: store.forApp(app.bundleID), catalog: app.catalog, verifiers: app.verifiers, restorePolicy: configuration.restorePolicy,
            metrics: configuration.metrics, now: configuration.now, logger: configuration.logger, serverAPI: app.serverAPI, offerKey: app.offerKey,
            ledgerReadiness: readiness, work: work, exchangeRates: configuration.exchangeRates, webhookLease: configuration.webhookLease)
    })
    if let interval = configuration.analyticsRefreshInterval {
        for service in apps.services { services.append(AnalyticsRefresher(service: service.analytics, interval: interval, clock: configuration.backgroundClock)) }
    }
    if let interval = configuration.memoryTrimInterval {
        services.append(MemoryTrimmer(interval: interval, clock: configuration.backgroundClock))
    }
    if let interval = configuration.reconciliationInterval {
        services.append(Reconciler(services: apps.services.map(\.appStore), interval: interval, clock: configuration.backgroundClock))
    }
    if let interval = configuration.consumptionInterval {
        services.append(ConsumptionResponder(services: apps.services.map(\.consumption), interval: interval, clock: configuration.backgroundClock))
    }
    if let interval = configuration.importInterval {
        services.append(ImportWorker(services: apps.services.map(\.appStore), interval: interval, clock: configuration.backgroundClock))
    }
    if let interval = configuration.webhookInterval {
        services.append(WebhookWorker(
            services: apps.services.map(\.webhooks), policy: configuration.webhookPolicy, interval: interval, signingClock: configuration.webhookSigningClock,
            clock: configuration.backgroundClock))
    }
    let accounts = DashboardAccounts(
        store: store.dashboardAccountStore(), sessions: store.dashboardSessionStore(), hasher: PasswordHasher(cost: configuration.passwordCost),
        now: configuration.now)
    let router = buildRouter(
        apps: apps, keys: configuration.keys, stored: StoredKeys(store: store.keyStore(), now: configuration.now),
        sessions: DashboardSessions(store: store.dashboardSessionStore()), accounts: accounts,
        passkeys: Passkeys(store: store.passkeyStore(), accounts: accounts, now: configuration.now),
        metrics: configuration.metrics,
        maximumBodySize: configuration.http.maximumBodySize, signer: configuration.customerInfoSigner, extraRoutes: configuration.extraRoutes,
        logger: configuration.logger)
    let onServerRunning = configuration.onServerRunning
    let bodyTimeout = TimeAmount(configuration.http.bodyTimeout)
    let http1 = HTTP1Channel.Configuration(
        additionalChannelHandlers: [RequestBodyTimeoutHandler(timeout: bodyTimeout)], idleTimeout: TimeAmount(configuration.http.idleTimeout))
    var application = Application(
        router: router,
        server: configuration.http.requestsOnEventLoops ?? (loopLease != nil)
            ? .http1OnEventLoops(configuration: http1) : .http1(configuration: http1),
        configuration: .init(
            address: .hostname(configuration.http.host, port: configuration.http.port), serverName: "Entitle",
            availableConnectionsDelegate: MaximumAvailableConnections(configuration.http.connectionLimit, logger: configuration.logger)),
        services: services,
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
        logger: configuration.logger)
    let primary = store.forApp(apps.primary.bundleID)
    let staticWebhooks = configuration.staticWebhooks
    let now = configuration.now
    let migrates = migrate
    application.beforeServerStarts {
        // The primary app migrates (adopting rows written before apps existed); the others need nothing more.
        if migrates { try await primary.migrate() }
        // The event loops' read connections open now, not under the first requests.
        await loopLease?.openAll()
        for service in apps.services {
            try await StaticWebhook.register(staticWebhooks.filter { $0.app == nil || $0.app == service.bundleID }, in: service.webhooks.webhookStore, at: now())
        }
        readiness.markReady()
    }
    return application
}

/// The API's routes, one controller per resource. The App Store webhook and `/health` need no key;
/// subscriber routes take the subscriber's public key or a secret key; the rest a secret key. Every
/// keyed route is for one app: the only one, or the one the `Entitle-App` header names.
func buildRouter(
    apps: ServedApps, keys: APIKeys, stored: StoredKeys, sessions: DashboardSessions, accounts: DashboardAccounts, passkeys: Passkeys, metrics: ServerMetrics = ServerMetrics(),
    maximumBodySize: Int,
    signer: CustomerInfoSigner? = nil, extraRoutes: (@Sendable (Router<EntitleRequestContext>) -> Void)? = nil,
    logger: Logger = Logger(label: "entitle")
) -> Router<EntitleRequestContext> {
    let router = Router(context: EntitleRequestContext.self)
    let routes = RouteMethods()
    // First: every line the request causes, and its response, carry its ID.
    router.add(middleware: RequestIDMiddleware(logger: logger))
    // A span per request while a tracer is bootstrapped (docs/operations.md, "Traces"); invitation tokens
    // in query strings are never recorded.
    if TraceParent.isTracing { router.add(middleware: TracingMiddleware(redactingQueryParameters: ["token"])) }
    router.add(middleware: MetricsMiddleware(metrics: metrics))
    router.add(middleware: BodyLimitMiddleware(limit: maximumBodySize, larger: ["/v1/imports/jobs": AppStoreSyncService.largestImportFile + 64 * 1024]))
    router.add(middleware: ErrorMiddleware(routes: routes))

    if let signer { router.add(middleware: SigningMiddleware(signer: signer)) }
    let select = AppSelectionMiddleware(apps: apps)
    OperationsController(apps: apps, metrics: metrics, signer: signer).addRoutes(to: router)
    AppStoreWebhookController(apps: apps, metrics: metrics).addRoutes(to: router)
    // App keys reach subscribers and offerings; public keys their own subscriber; secret keys everything.
    let forApps = AuthenticationMiddleware(keys: keys, stored: stored, apps: apps, allowSubscriberKey: true, allowAppKey: true)
    SubscribersController(keys: keys).addRoutes(to: router.group("/v1/subscribers/{appUserID}").add(middleware: select).authenticated(by: forApps))
    let secret = AuthenticationMiddleware(keys: keys, stored: stored, apps: apps, allowSubscriberKey: false)
    AdminController(keys: keys, stored: stored).addRoutes(to: router, select: select, secret: secret)
    CustomersController().addRoutes(to: router.group("/v1/subscribers").add(middleware: OffEventLoopMiddleware()).add(middleware: select).authenticated(by: secret))
    ImportsController().addRoutes(to: router.group("/v1/imports").add(middleware: OffEventLoopMiddleware()).add(middleware: select).authenticated(by: secret))
    ExportsController().addRoutes(to: router.group("/v1/exports").add(middleware: OffEventLoopMiddleware()).add(middleware: select).authenticated(by: secret))
    AnalyticsController().addRoutes(to: router.group("/v1/analytics").add(middleware: OffEventLoopMiddleware()).add(middleware: select).authenticated(by: secret))
    WebhooksController().addRoutes(to: router.group("/v1/webhooks").add(middleware: select).authenticated(by: secret))
    ExperimentsController().addRoutes(to: router.group("/v1/experiments").add(middleware: OffEventLoopMiddleware()).add(middleware: select).authenticated(by: secret))
    OfferingsController().addRoutes(to: router.group("/v1/offerings").add(middleware: select).authenticated(by: forApps))
    DashboardAccountsController(apps: apps, keys: keys, sessions: sessions, accounts: accounts).addRoutes(to: router)
    PasskeysController(apps: apps, sessions: sessions, accounts: accounts, passkeys: passkeys).addRoutes(to: router)
    DashboardController(apps: apps, stored: stored, sessions: sessions, accounts: accounts).addRoutes(to: router)
    extraRoutes?(router)
    routes.record(router.routes)
    return router
}
