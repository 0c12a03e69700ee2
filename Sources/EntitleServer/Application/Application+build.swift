import EntitleAnalytics
import EntitleStorage
import EntitleWire
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

extension SubscriberResponse: ResponseEncodable {}
extension AccessResponse: ResponseEncodable {}
extension TimelineEvent: ResponseEncodable {}
extension PurchaseLookupResponse: ResponseEncodable {}
extension OpenAccessResponse: ResponseEncodable {}
extension AnalyticsReport: ResponseEncodable {}

/// The server application, as the CLI, `entitle demo` and the tests run it: the router over the
/// subscription service, and every long-running part as a `Service` of the application — the
/// database client, the analytics refresher, the ledger's closing — with the ledger migrated before
/// the server listens. Graceful shutdown stops the server first and closes the ledger last.
public func buildApplication(configuration: ServerConfiguration) async throws -> some ApplicationProtocol {
    var services: [any Service] = []
    let store: any LedgerStore
    var migrate = false
    switch configuration.ledger {
    case .database(let database):
        let connection = try await LedgerConnection.open(database, logger: configuration.logger, observer: configuration.metrics.storageObserver)
        configuration.metrics.recordSessionCapacity(LedgerConnection.sessionCapacity(database))
        store = connection.store
        services += connection.services
        migrate = true
    case .store(let given):
        store = given
    }
    let service = SubscriptionService(
        store: store, catalog: configuration.catalog, verifiers: configuration.verifiers, restorePolicy: configuration.restorePolicy,
        metrics: configuration.metrics, now: configuration.now, logger: configuration.logger)
    if let interval = configuration.analyticsRefreshInterval {
        services.append(AnalyticsRefresher(service: service, interval: interval))
    }
    let router = buildRouter(
        service: service, keys: configuration.keys, metrics: configuration.metrics, maximumBodySize: configuration.http.maximumBodySize)
    let onServerRunning = configuration.onServerRunning
    var application = Application(
        router: router,
        configuration: .init(address: .hostname(configuration.http.host, port: configuration.http.port), serverName: "Entitle"),
        services: services,
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
        logger: configuration.logger)
    if migrate {
        application.beforeServerStarts { try await store.migrate() }
    }
    return application
}

/// The API's routes, one controller per resource. The App Store webhook and `/health` need no key;
/// subscriber routes take the subscriber's public key or a secret key; the rest a secret key.
public func buildRouter(
    service: SubscriptionService, keys: APIKeys, metrics: ServerMetrics = ServerMetrics(), maximumBodySize: Int
) -> Router<EntitleRequestContext> {
    let router = Router(context: EntitleRequestContext.self)
    let routes = RouteMethods()
    router.add(middleware: MetricsMiddleware(metrics: metrics))
    router.add(middleware: BodyLimitMiddleware(limit: maximumBodySize))
    router.add(middleware: ErrorMiddleware(routes: routes))

    OperationsController(service: service, metrics: metrics).addRoutes(to: router)
    AppStoreWebhookController(service: service, metrics: metrics).addRoutes(to: router)
    SubscribersController(service: service).addRoutes(
        to: router.group("/v1/subscribers/{appUserID}").add(middleware: AuthenticationMiddleware(keys: keys, allowSubscriberKey: true)))
    let secret = AuthenticationMiddleware(keys: keys, allowSubscriberKey: false)
    AdminController(service: service, keys: keys).addRoutes(to: router, secret: secret)
    AnalyticsController(service: service).addRoutes(to: router.group("/v1/analytics").add(middleware: secret))
    DashboardController(service: service, keys: keys).addRoutes(to: router)
    routes.record(router.routes)
    return router
}
