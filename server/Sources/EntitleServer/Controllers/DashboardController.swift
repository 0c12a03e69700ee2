import EntitleAnalytics
import EntitleCore
import EntitleWire
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The dashboard's pages under `/dashboard`, server-rendered, for a signed-in person (``DashboardAccountsController``).
struct DashboardController {
    let apps: ServedApps
    let stored: StoredKeys
    let sessions: DashboardSessions
    let accounts: DashboardAccounts

    /// The cookie that remembers which app the dashboard shows.
    static let appCookie = "entitle_app"
    /// The switcher's choice of every app together.
    static let allApps = "all"

    /// The analytics report a page shows: its app's, or every app's together.
    static func report(_ apps: ServedApps, _ context: EntitleRequestContext, _ request: Request) async throws(ServiceError) -> AnalyticsReport {
        let (from, to, environment) = (query(request, "from"), query(request, "to"), query(request, "environment"))
        if context.allApps { return try await apps.combinedAnalytics(from: from, to: to, environment: environment) }
        return try await context.services.analytics.analytics(from: from, to: to, environment: environment)
    }

    func addRoutes(to router: Router<EntitleRequestContext>) {
        let (apps, sessions) = (apps, sessions)
        let service = apps.primary

        let pages = router.group("/dashboard").add(middleware: OffEventLoopMiddleware()).add(middleware: SameOriginMiddleware())
            .add(middleware: DashboardSessionMiddleware(sessions: sessions, accounts: accounts, now: service.context.now))
            .add(middleware: DashboardAppMiddleware(apps: apps))
            .add(middleware: AuditMiddleware())
        // The app switcher: remembers the choice in a cookie, then shows the overview.
        pages.get("apps/{bundleID}") { request, context -> Response in
            let bundleID = try context.parameters.require("bundleID")
            guard bundleID == Self.allApps || apps.service(bundleID: BundleID(bundleID)) != nil else {
                throw ServiceError(.notFound, "\(bundleID) is not an app this server serves")
            }
            var response = Self.redirect("/dashboard")
            response.headers[.setCookie] = "\(Self.appCookie)=\(bundleID); Path=/dashboard; HttpOnly; SameSite=Strict" + Self.secureAttribute(request)
            return response
        }
        pages.get { request, context -> Response in
            try await Self.page(apps, context) {
                let report = try await Self.report(apps, context, request)
                var health: [(app: String, health: BusinessHealth)] = []
                for service in context.allApps ? apps.services : [try context.services] {
                    health.append((service.bundleID.rawValue, try await service.analytics.businessHealth()))
                }
                return OverviewPage.render(report, health: health)
            }
        }
        pages.get("funnels") { request, context -> Response in
            try await Self.page(apps, context) {
                let (from, to, environment) = (Self.query(request, "from"), Self.query(request, "to"), Self.query(request, "environment"))
                return FunnelsPage.render(
                    context.allApps
                        ? try await apps.combinedFunnels(from: from, to: to, environment: environment)
                        : try await context.services.analytics.funnels(from: from, to: to, environment: environment))
            }
        }
        pages.get("experiments") { _, context -> Response in
            try await Self.page(apps, context) {
                guard !context.allApps else { throw ServiceError(.invalidRequest, "choose an app (above) to see its experiments") }
                let service = try context.services.experiments
                var shown: [(Experiment, ExperimentReport)] = []
                for experiment in try await service.experiments().reversed() { shown.append(try await service.results(experiment.id)) }
                return ExperimentsPage.render(shown)
            }
        }
        pages.post("experiments/{experimentID}/{action}") { request, context -> Response in
            let (id, action) = (try context.parameters.require("experimentID"), try context.parameters.require("action"))
            let form = Self.form(String(buffer: try await request.body.collect(upTo: 16_384)))
            return try await Self.action(apps, context) {
                let service = try context.services.experiments
                switch action {
                case "start": _ = try await service.transition(id, to: .running)
                case "pause": _ = try await service.transition(id, to: .paused)
                case "stop": _ = try await service.transition(id, to: .stopped)
                case "rollout": _ = try await service.transition(id, to: .rolledOut, variantID: form["variant"] ?? "")
                default: throw ServiceError(.notFound, "an experiment's actions are start, pause, stop and rollout")
                }
                return "/dashboard/experiments"
            }
        }
        pages.get("cohorts") { request, context -> Response in
            try await Self.page(apps, context) { CohortsPage.render(try await Self.report(apps, context, request)) }
        }
        pages.get("products") { request, context -> Response in
            try await Self.page(apps, context) { ProductsPage.render(try await Self.report(apps, context, request)) }
        }
        pages.get("customers") { request, context -> Response in
            try await Self.page(apps, context) {
                guard !context.allApps else { throw ServiceError(.invalidRequest, "choose an app (above) to list its customers") }
                let service = try context.services
                let fields = Self.customerFields(request)
                let filter = try SubscriberFilter(fields: fields, catalog: service.catalog)
                let page = try await service.customers.page(filter, after: Self.query(request, "cursor"), limit: 50)
                return CustomersPage.render(page, filter: filter, catalog: service.catalog, fields: fields.compactMapValues { $0 })
            }
        }
        pages.get("subscribers") { request, context -> Response in
            try await Self.page(apps, context) {
                let text = (Self.query(request, "q") ?? "").trimmingCharacters(in: .whitespaces)
                guard !text.isEmpty else { return try await Self.recentSubscribers(apps, context, request) }
                guard !context.allApps else { throw ServiceError(.invalidRequest, "choose an app (above) to search its subscribers") }
                let search = try await context.services.admin.searchSubscribers(text)
                return SubscribersPage.search(query: text, matches: search.matches.map(\.rawValue), owner: search.purchaseOwner?.rawValue)
            }
        }
        pages.get("subscribers/{appUserID}") { _, context -> Response in
            try await Self.page(apps, context) {
                let appUserID = try context.subscriberID()
                guard try await context.services.subscribers.isKnown(appUserID: appUserID) else {
                    throw ServiceError(.notFound, "no subscriber \(appUserID)")
                }
                return SubscribersPage.detail(
                    SubscriberResponseBuilder.response(try await context.services.subscribers.subscriber(appUserID: appUserID)),
                    timeline: try await context.services.analytics.stateTimeline(appUserID: appUserID), supportTools: try context.services.appStore.hasServerAPI,
                    grantable: try context.services.catalog.entitlements.map(\.id))
            }
        }
        pages.post("subscribers/{appUserID}/refresh") { _, context -> Response in
            let appUserID = try context.subscriberID()
            return try await Self.action(apps, context) {
                _ = try await context.services.appStore.refreshFromAppStore(appUserID: appUserID)
                return SubscribersPage.link(appUserID.rawValue)
            }
        }
        pages.post("subscribers/{appUserID}/grants") { request, context -> Response in
            let appUserID = try context.subscriberID()
            let form = Self.form(String(buffer: try await request.body.collect(upTo: 16_384)))
            return try await Self.action(apps, context) {
                guard let days = form["days"].flatMap({ Int($0) }), (1...366).contains(days), let entitlement = form["entitlement"], !entitlement.isEmpty else {
                    throw ServiceError(.invalidRequest, "an entitlement and 1 to 366 days are required")
                }
                let service = try context.services
                let reason = form["reason"].map { String($0.prefix(200)) }.flatMap { $0.isEmpty ? nil : $0 }
                _ = try await service.admin.grant(
                    appUserID: appUserID, entitlementID: entitlement, startsAt: nil, endsAt: service.context.now().addingTimeInterval(Double(days) * 86_400),
                    reason: reason)
                return SubscribersPage.link(appUserID.rawValue)
            }
        }
        pages.post("subscribers/{appUserID}/extend") { request, context -> Response in
            let appUserID = try context.subscriberID()
            let form = Self.form(String(buffer: try await request.body.collect(upTo: 16_384)))
            return try await Self.action(apps, context) {
                guard let days = form["days"].flatMap({ Int($0) }), let reason = form["reason"].flatMap({ Int($0) }) else {
                    throw ServiceError(.invalidRequest, "days (1 to 90) and a reason are required")
                }
                _ = try await context.services.appStore.extendRenewal(appUserID: appUserID, originalTransactionID: nil, days: days, reasonCode: reason)
                return SubscribersPage.link(appUserID.rawValue)
            }
        }
        pages.get("orders") { request, context -> Response in
            try await Self.page(apps, context) {
                guard let order = Self.query(request, "order")?.trimmingCharacters(in: .whitespaces), !order.isEmpty else {
                    return OrdersPage.render(order: "", lookup: nil)
                }
                guard !context.allApps else { throw ServiceError(.invalidRequest, "choose an app (above) to look up its orders") }
                return OrdersPage.render(order: order, lookup: OrderResponse(try await context.services.appStore.lookUpOrder(order)))
            }
        }
        pages.get("keys") { _, context -> Response in
            try await Self.page(apps, context) {
                guard !context.allApps else { throw ServiceError(.invalidRequest, "choose an app (above) to manage its keys") }
                let app = try context.services.bundleID
                return KeysPage.render(app: app.rawValue, keys: try await stored.keys(app: app), created: nil, now: try context.services.context.now())
            }
        }
        pages.post("keys") { request, context -> Response in
            let body = try await request.body.collect(upTo: 16_384)
            let form = Self.form(String(buffer: body))
            return try await Self.page(apps, context) {
                guard !context.allApps else { throw ServiceError(.invalidRequest, "choose an app (above) to manage its keys") }
                let name = form["name"].flatMap { $0.isEmpty ? nil : String($0.prefix(100)) }
                let app = try context.services.bundleID
                // The scope is a secret key's: an app key's form leaves it.
                let created = try await stored.create(
                    app: app, kindNamed: form["kind"] ?? "", name: name, scopeNamed: form["kind"] == "secret" ? form["scope"] : nil)
                return KeysPage.render(app: app.rawValue, keys: try await stored.keys(app: app), created: created, now: try context.services.context.now())
            }
        }
        pages.post("keys/{keyID}/revoke") { _, context -> Response in
            let id = try context.parameters.require("keyID")
            let service = try context.services
            guard !context.allApps else { throw ServiceError(.notFound, "no key \(id) for this app") }
            _ = try await stored.revoke(id: id, app: service.bundleID, at: service.context.now())
            return Self.redirect("/dashboard/keys")
        }
        pages.get("audit") { _, context -> Response in
            try await Self.page(apps, context) {
                guard !context.allApps else { throw ServiceError(.invalidRequest, "choose an app (above) to read its audit log") }
                let service = try context.services
                return AuditPage.render(app: service.bundleID.rawValue, log: try await service.audit.entries(before: nil, limit: 200))
            }
        }
        pages.get("webhooks") { _, context -> Response in
            try await Self.page(apps, context) {
                guard !context.allApps else { throw ServiceError(.invalidRequest, "choose an app (above) to manage its webhooks") }
                return try await Self.webhooksPage(try context.services, created: nil)
            }
        }
        pages.post("webhooks") { request, context -> Response in
            let form = Self.form(String(buffer: try await request.body.collect(upTo: 16_384)))
            return try await Self.page(apps, context) {
                guard !context.allApps else { throw ServiceError(.invalidRequest, "choose an app (above) to manage its webhooks") }
                let service = try context.services
                let types = (form["events"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                let (endpoint, secret) = try await service.webhooks.addWebhookEndpoint(url: form["url"] ?? "", eventTypes: types, description: nil, secret: nil)
                return try await Self.webhooksPage(service, created: (WebhookInfo.info(endpoint).id, secret))
            }
        }
        pages.post("webhooks/{endpointID}/{action}") { _, context -> Response in
            let (id, action) = (try context.parameters.require("endpointID"), try context.parameters.require("action"))
            guard !context.allApps else { throw ServiceError(.invalidRequest, "choose an app (above) to manage its webhooks") }
            let service = try context.services
            switch action {
            case "test": _ = try await service.webhooks.sendTestWebhook(endpointID: id)
            case "replay": _ = try await service.webhooks.replayWebhooks(endpointID: id, deliveryIDs: nil)
            case "remove": _ = try await service.webhooks.removeWebhookEndpoint(id: id)
            default: throw ServiceError(.notFound, "an endpoint's actions are test, replay and remove")
            }
            return Self.redirect("/dashboard/webhooks")
        }
        pages.get("export/{file}") { request, context -> Response in
            let file = try context.parameters.require("file")
            guard file.hasSuffix(".csv") else { throw ServiceError(.notFound, "exports are CSV files: /dashboard/export/CHART.csv") }
            if file == "customers.csv" {
                guard !context.allApps else { throw ServiceError(.invalidRequest, "choose an app first: the customer list is one app's") }
                let service = try context.services
                return CustomersController.csv(
                    try SubscriberFilter(fields: Self.customerFields(request), catalog: service.catalog), customers: service.customers,
                    filename: "\(service.bundleID.rawValue)-customers.csv")
            }
            return try Self.csv(String(file.dropLast(4)), report: await Self.report(apps, context, request))
        }
    }

    /// The recent subscribers page: the app's, or every app's together, filtered by the form's state and product.
    static func recentSubscribers(_ apps: ServedApps, _ context: EntitleRequestContext, _ request: Request) async throws -> String {
        let (state, product) = (query(request, "state"), query(request, "product"))
        let services = context.allApps ? apps.services : [try context.services]
        let limit = 50
        var listed: [SubscriberListing] = []
        var products: [String] = []
        for service in services {
            products += service.catalog.products.map(\.id.rawValue)
            // Every app together: a product is one app's, and the others have no subscriber of it.
            if context.allApps, let product, !product.isEmpty, service.catalog.product(ProductID(product)) == nil { continue }
            listed += try await service.admin.recentSubscribers(SubscriberFilter(state: state, product: product, catalog: service.catalog), limit: limit)
        }
        listed.sort { ($0.updatedAt, $0.appUserID.rawValue) > ($1.updatedAt, $1.appUserID.rawValue) }
        return SubscribersPage.list(
            Array(listed.prefix(limit)), state: state, product: product, products: products, showApp: context.allApps, limit: limit)
    }

    /// The CSV of `chart` for `from...to` (also served to secret keys under `/v1/analytics/export`).
    static func csv(_ chart: String, service: AppServices, from: String?, to: String?, environment: String?) async throws -> Response {
        guard AnalyticsCSV.charts.contains(chart) else {
            throw ServiceError(.notFound, "no chart \(chart); charts are \(AnalyticsCSV.charts.joined(separator: ", "))")
        }
        return try csv(chart, report: try await service.analytics.analytics(from: from, to: to, environment: environment))
    }

    /// The CSV of `chart` from `report`.
    static func csv(_ chart: String, report: AnalyticsReport) throws -> Response {
        guard AnalyticsCSV.charts.contains(chart) else {
            throw ServiceError(.notFound, "no chart \(chart); charts are \(AnalyticsCSV.charts.joined(separator: ", "))")
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/csv; charset=utf-8"
        headers[.contentDisposition] = "attachment; filename=\"entitle-\(chart)-\(report.from)-\(report.to).csv\""
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: AnalyticsCSV.render(chart, report) ?? "")))
    }

    /// `; Secure` when the request came over HTTPS: Entitle serves plain HTTP behind a TLS proxy, which
    /// says so with `X-Forwarded-Proto: https` (docs/operations.md).
    static func secureAttribute(_ request: Request) -> String {
        let proto = request.headers[.xForwardedProto]?.split(separator: ",").first?.trimmingCharacters(in: .whitespaces)
        return proto?.lowercased() == "https" ? "; Secure" : ""
    }

    /// The customer list's filter fields of a request (``CustomersController/filterFields``).
    static func customerFields(_ request: Request) -> [String: String?] {
        Dictionary(uniqueKeysWithValues: CustomersController.filterFields.map { ($0, query(request, $0)) })
    }

    /// A form field of a dashboard page: left empty, it means "not given".
    static func query(_ request: Request, _ name: String) -> String? {
        request.uri.queryParameters.get(name).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A page, or an HTML error page with the error's code when building it fails.
    /// A page of the app the request is for, with the app switcher when the server serves several.
    static func page(_ apps: ServedApps, _ context: EntitleRequestContext, _ build: () async throws -> String) async throws -> Response {
        let switcher = apps.services.count > 1
            ? DashboardLayout.Switcher(
                apps: apps.services.map(\.bundleID.rawValue),
                current: context.allApps ? allApps : ((try? context.services.bundleID) ?? apps.primary.bundleID).rawValue)
            : nil
        return try await DashboardLayout.$switcher.withValue(switcher) { try await page(build) }
    }

    /// A form's action: done, then back to the page it returns; a refusal shows as an error page.
    static func action(_ apps: ServedApps, _ context: EntitleRequestContext, _ work: () async throws -> String) async throws -> Response {
        var target: String?
        let errorPage = try await page(apps, context) {
            guard !context.allApps else { throw ServiceError(.invalidRequest, "choose an app (above) first") }
            target = try await work()
            return ""
        }
        return target.map(redirect) ?? errorPage
    }

    static func page(_ build: () async throws -> String) async throws -> Response {
        do {
            return html(try await build())
        } catch let error as ServiceError {
            let body = "<h1>\(HTML.escape(error.code.rawValue))</h1><p class=\"error\">\(HTML.escape(error.message))</p><p><a href=\"/dashboard\">Overview</a></p>"
            return html(DashboardLayout.page(title: "Error", section: .overview, body: body), status: HTTPStatusTable.status(for: error.code))
        }
    }

    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        // One script, the dashboard's own (passkeys: /dashboard/passkeys.js), and its requests to this server only.
        headers[.contentSecurityPolicy] =
            "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'"
        headers[.xContentTypeOptions] = "nosniff"
        // Not `no-referrer`: with it, browsers send `Origin: null` on the dashboard's own forms.
        headers[.referrerPolicy] = "same-origin"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func redirect(_ location: String) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        headers[.cacheControl] = "no-store"
        return Response(status: .seeOther, headers: headers)
    }

    /// `application/x-www-form-urlencoded` fields.
    static func form(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            guard let name = parts.first else { continue }
            fields[decode(name)] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }

    static func webhooksPage(_ service: AppServices, created: (id: String, secret: String)?) async throws(ServiceError) -> String {
        let overview = try await service.webhooks.overview(recentDeliveries: 50)
        return WebhooksPage.render(
            app: service.bundleID.rawValue, endpoints: overview.endpoints,
            deliveries: overview.deliveries.map { WebhooksPage.Delivery(delivery: $0.delivery, attempts: $0.attempts) },
            counts: overview.counts, created: created)
    }
}
