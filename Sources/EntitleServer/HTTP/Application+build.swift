import EntitleAnalytics
import EntitleCore
import EntitleStorage
import EntitleWire
import Foundation
import HTTPTypes
import Hummingbird
import Logging

extension SubscriberResponse: ResponseEncodable {}
extension AccessResponse: ResponseEncodable {}
extension TimelineEvent: ResponseEncodable {}
extension PurchaseLookupResponse: ResponseEncodable {}
extension OpenAccessResponse: ResponseEncodable {}
extension AnalyticsReport: ResponseEncodable {}

/// The HTTP configuration of the server.
public struct HTTPConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Bodies larger than this are refused with 413.
    public var maximumBodySize: Int

    public init(host: String = "127.0.0.1", port: Int = 8080, maximumBodySize: Int = 1024 * 1024) {
        self.host = host
        self.port = port
        self.maximumBodySize = maximumBodySize
    }
}

/// The server application: the router over `service`, listening as configured.
public func buildApplication(
    http: HTTPConfiguration, service: SubscriptionService, keys: APIKeys, metrics: ServerMetrics = ServerMetrics(), logger: Logger
) -> some ApplicationProtocol {
    let router = buildRouter(service: service, keys: keys, metrics: metrics, maximumBodySize: http.maximumBodySize)
    return Application(
        router: router, configuration: .init(address: .hostname(http.host, port: http.port), serverName: "Entitle"), logger: logger)
}

/// The API's routes. The App Store webhook and `/health` need no key; subscriber routes take the
/// subscriber's public key or a secret key.
public func buildRouter(
    service: SubscriptionService, keys: APIKeys, metrics: ServerMetrics = ServerMetrics(), maximumBodySize: Int
) -> Router<EntitleRequestContext> {
    let router = Router(context: EntitleRequestContext.self)
    router.add(middleware: MetricsMiddleware(metrics: metrics))
    router.add(middleware: BodyLimitMiddleware(limit: maximumBodySize))
    router.add(middleware: ErrorMiddleware())

    router.get("/health") { _, _ -> [String: String] in ["status": "ok"] }
    router.get("/metrics") { _, _ -> Response in
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.render())))
    }

    // Apple's signature authenticates the webhook. 200 only once the event is durably stored.
    router.post("/v1/app-store/notifications") { request, context -> [String: String] in
        let body = try await request.decode(as: AppStoreNotificationRequest.self, context: context)
        do {
            let outcome = try await service.ingestNotification(signedPayload: body.signedPayload)
            metrics.recordNotification(outcome: outcome == .duplicate ? "duplicate" : "appended")
        } catch let error as ServiceError {
            metrics.recordNotification(outcome: error.code)
            throw error
        }
        return [:]
    }

    let subscribers = router.group("/v1/subscribers/{appUserID}")
        .add(middleware: AuthenticationMiddleware(keys: keys, allowSubscriberKey: true))
    subscribers.get { _, context -> SubscriberResponse in
        try await service.subscriber(appUserID: context.parameters.require("appUserID"))
    }
    subscribers.post("transactions") { request, context -> SubscriberResponse in
        let body = try await request.decode(as: SubmitTransactionRequest.self, context: context)
        return try await service.submitTransaction(appUserID: context.parameters.require("appUserID"), signedTransaction: body.signedTransaction)
    }
    subscribers.post("trial") { _, context -> SubscriberResponse in
        try await service.startTrial(appUserID: context.parameters.require("appUserID"))
    }
    subscribers.post("usage") { request, context -> AccessResponse in
        let body = try await request.decode(as: RecordUsageRequest.self, context: context)
        return try await service.recordUsage(appUserID: context.parameters.require("appUserID"), body)
    }
    subscribers.get("access/{feature}") { request, context -> AccessResponse in
        let usage = request.uri.queryParameters.get("usage").map { Int($0) } ?? 1
        guard let usage, usage >= 0 else { throw ServiceError(.invalidRequest, "usage is a whole number from 0", status: 400) }
        return try await service.access(
            appUserID: context.parameters.require("appUserID"), feature: context.parameters.require("feature"), usage: usage)
    }

    let secret = AuthenticationMiddleware(keys: keys, allowSubscriberKey: false)
    let admin = router.group("/v1/subscribers/{appUserID}").add(middleware: secret)
    admin.post("grants") { request, context -> SubscriberResponse in
        let body = try await request.decode(as: GrantRequest.self, context: context)
        return try await service.grant(appUserID: context.parameters.require("appUserID"), body)
    }
    admin.delete("grants/{grantID}") { _, context -> SubscriberResponse in
        try await service.revokeGrant(appUserID: context.parameters.require("appUserID"), grantID: context.parameters.require("grantID"))
    }
    admin.post("overrides") { request, context -> SubscriberResponse in
        let body = try await request.decode(as: OverrideRequest.self, context: context)
        return try await service.addOverride(appUserID: context.parameters.require("appUserID"), body)
    }
    admin.delete("overrides/{overrideID}") { _, context -> SubscriberResponse in
        try await service.removeOverride(appUserID: context.parameters.require("appUserID"), overrideID: context.parameters.require("overrideID"))
    }
    admin.put("members/{memberID}") { _, context -> SubscriberResponse in
        try await service.addMember(householdID: context.parameters.require("appUserID"), memberID: context.parameters.require("memberID"))
    }
    admin.delete("members/{memberID}") { _, context -> SubscriberResponse in
        try await service.removeMember(householdID: context.parameters.require("appUserID"), memberID: context.parameters.require("memberID"))
    }
    admin.get("events") { _, context -> [TimelineEvent] in
        try await service.timeline(appUserID: context.parameters.require("appUserID"))
    }
    let openAccess = router.group("/v1/open-access").add(middleware: secret)
    openAccess.get { _, _ -> OpenAccessResponse in
        OpenAccessResponse(try await service.openAccess())
    }
    openAccess.put { request, context -> OpenAccessResponse in
        let body = try await request.decode(as: OpenAccessRequest.self, context: context)
        return OpenAccessResponse(try await service.setOpenAccess(endsAt: body.endsAt, entitlementIDs: body.entitlementIDs ?? [], reason: body.reason))
    }
    openAccess.delete { _, _ -> OpenAccessResponse in
        OpenAccessResponse(try await service.setOpenAccess(endsAt: nil, entitlementIDs: [], reason: nil))
    }
    router.group("/v1/purchases").add(middleware: secret).get("{originalTransactionID}") { _, context -> PurchaseLookupResponse in
        try await service.lookup(originalTransactionID: context.parameters.require("originalTransactionID"))
    }
    admin.post("keys") { _, context -> [String: String] in
        let appUserID = try context.parameters.require("appUserID")
        guard let key = keys.publicKey(for: appUserID) else {
            throw ServiceError(.invalidRequest, "no public-key secret is configured", status: 400)
        }
        return ["appUserID": appUserID, "publicKey": key]
    }
    let analytics = router.group("/v1/analytics").add(middleware: secret)
    analytics.get("overview") { request, _ -> AnalyticsReport in
        try await service.analytics(from: DashboardRoutes.query(request, "from"), to: DashboardRoutes.query(request, "to"))
    }
    analytics.get("export/{chart}") { request, context -> Response in
        try await DashboardRoutes.csv(context.parameters.require("chart"), service: service, request: request)
    }
    DashboardRoutes.add(to: router, service: service, keys: keys)
    return router
}

/// Sets the request context's body limit.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = EntitleRequestContext
    let limit: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.bodyLimit = limit
        return try await next(request, context)
    }
}

extension OpenAccessResponse {
    init(_ window: OpenAccessWindow?) {
        self.init(
            isOn: window != nil, startsAt: window?.startsAt, endsAt: window?.endsAt, entitlementIDs: window?.entitlementIDs ?? [],
            reason: window?.reason)
    }
}
