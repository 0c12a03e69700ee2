import Crypto
import EntitleAnalytics
import EntitleCore
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// Analytics over HTTP and the dashboard: sign-in, sessions, pages, CSV, against the hand-computed
/// ledger of ``AnalyticsLedger`` on both engines.
@Suite("Dashboard and analytics API")
struct DashboardTests {
    static let range = "from=2026-01-01&to=2026-03-31"

    /// Runs `body` with the hand-computed ledger stored and the clock at April 1st 2026.
    func withLedger(engine: StorageEngine = .sqlite, _ body: @Sendable @escaping (ServerHarness, any TestClientProtocol) async throws -> Void) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            for event in AnalyticsLedger.events { _ = try await harness.store.append(event) }
            harness.clock.set(AnalyticsLedger.at("2026-04-01T08:00:00Z"))
            try await body(harness, client)
        }
    }

    func signIn(_ client: any TestClientProtocol, key: String = ServerHarness.secretKey, forwardedProto: String? = nil) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.contentType] = "application/x-www-form-urlencoded"
        if let forwardedProto { headers[HTTPField.Name("X-Forwarded-Proto")!] = forwardedProto }
        let body = "key=" + (key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        return try await client.execute(uri: "/dashboard/login", method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    func page(_ client: any TestClientProtocol, _ uri: String, cookie: String?) async throws -> TestResponse {
        var headers = HTTPFields()
        if let cookie { headers[.cookie] = cookie }
        return try await client.execute(uri: uri, method: .get, headers: headers)
    }

    static func sha256(_ value: String) -> String {
        SHA256.hash(data: Data(value.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static func sessionCookie(_ response: TestResponse) -> String? {
        response.headers[.setCookie]?.split(separator: ";").first.map(String.init)
    }

    @Test("the overview API equals the report computed from the ledger in memory", arguments: StorageEngine.databases)
    func overview(engine: StorageEngine) async throws {
        try await withLedger(engine: engine) { harness, client in
            let response = try await harness.get(client, "/v1/analytics/overview?\(Self.range)", key: ServerHarness.secretKey)
            let report = try ServerHarness.decode(AnalyticsReport.self, response)
            let contributor = AnalyticsContributor(catalog: harness.catalog)
            var cells = AnalyticsCells()
            for user in Set(AnalyticsLedger.events.compactMap(\.appUserID)) {
                cells.add(contributor.cells(appUserID: user, events: AnalyticsLedger.events.filter { $0.appUserID == user }))
            }
            let first = AnalyticsCalendar.day(of: AnalyticsLedger.at("2026-01-01T00:00:00Z"))
            #expect(report == AnalyticsReport(cells: cells, catalog: harness.catalog, from: first, to: first + 89))
            #expect(report.current.mrr == ["USD": 7_990])
            #expect(report.months.map(\.churnRate) == [nil, 0.5, 0.5])
        }
    }

    @Test("a recompute interrupted after its first batch is finished before the next report, which counts every subscriber", arguments: StorageEngine.databases)
    func interruptedRecompute(engine: StorageEngine) async throws {
        try await withLedger(engine: engine) { harness, client in
            let before = try ServerHarness.decode(
                AnalyticsReport.self, try await harness.get(client, "/v1/analytics/overview?\(Self.range)", key: ServerHarness.secretKey))
            let contributor = AnalyticsContributor(catalog: harness.catalog)
            let analytics = harness.store.analyticsStore()
            try await analytics.startRecompute()
            let first = try await analytics.recomputeBatch(batchSize: 1, cells: { contributor.cells(appUserID: $0, events: $1) })
            #expect(first.subscribers == 1 && !first.finished)
            #expect(try await analytics.recomputeUnderWay())
            let partial = try await analytics.analyticsCells(through: nil)

            let after = try ServerHarness.decode(
                AnalyticsReport.self, try await harness.get(client, "/v1/analytics/overview?\(Self.range)", key: ServerHarness.secretKey))
            #expect(after == before)
            #expect(after.current.mrr == ["USD": 7_990])
            #expect(try await !analytics.recomputeUnderWay())
            #expect(try await analytics.analyticsCells(through: nil) != partial)
        }
    }

    @Test("the default range is the last twelve calendar months up to today")
    func defaultRange() async throws {
        try await withLedger { harness, client in
            let report = try ServerHarness.decode(AnalyticsReport.self, try await harness.get(client, "/v1/analytics/overview", key: ServerHarness.secretKey))
            #expect(report.from == "2025-05-01")
            #expect(report.to == "2026-04-01")
            #expect(report.months.count == 12)
        }
    }

    @Test("bad ranges and keys are refused with stable codes", arguments: [
        ("/v1/analytics/overview?from=2026-02-30", 400, "request.invalid"),
        ("/v1/analytics/overview?from=2026-03-01&to=2026-02-01", 400, "request.invalid"),
        ("/v1/analytics/overview?from=2000-01-01&to=2026-01-01", 400, "request.invalid"),
        ("/v1/analytics/overview?to=tomorrow", 400, "request.invalid"),
        ("/v1/analytics/overview?to=", 400, "request.invalid"),
        ("/v1/analytics/export/mrr?from=", 400, "request.invalid"),
        ("/v1/analytics/export/nothing", 404, "request.notFound"),
    ])
    func badInput(uri: String, status: Int, code: String) async throws {
        try await withLedger { harness, client in
            let response = try await harness.get(client, uri, key: ServerHarness.secretKey, expect: HTTPResponse.Status(code: status))
            #expect(ServerHarness.errorCode(response) == code)
        }
    }

    @Test("analytics need a secret key: a public key is forbidden, no key is unauthenticated")
    func secretOnly() async throws {
        try await withLedger { harness, client in
            let forbidden = try await harness.get(client, "/v1/analytics/overview", key: harness.publicKey("alice"), expect: .forbidden)
            #expect(ServerHarness.errorCode(forbidden) == "auth.forbidden")
            _ = try await harness.get(client, "/v1/analytics/export/mrr", key: nil, expect: .unauthorized)
        }
    }

    @Test("signing in takes a secret key; the session cookie opens the pages until it expires or is signed out")
    func session() async throws {
        try await withLedger { harness, client in
            let anonymous = try await page(client, "/dashboard", cookie: nil)
            #expect(anonymous.status == .seeOther)
            #expect(anonymous.headers[.location] == "/dashboard/login")
            #expect(try await page(client, "/dashboard/login", cookie: nil).status == .ok)

            let refused = try await signIn(client, key: harness.publicKey("alice"))
            #expect(refused.status == .unauthorized)
            #expect(refused.headers[.setCookie] == nil)
            #expect(String(buffer: refused.body).contains("not a secret key"))

            let accepted = try await signIn(client)
            #expect(accepted.status == .seeOther)
            let setCookie = try #require(accepted.headers[.setCookie])
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict") && setCookie.contains("Path=/dashboard"))
            #expect(!setCookie.contains("Secure"), "plain HTTP gets no Secure cookie, or the browser would drop it")
            let overTLS = try #require(try await signIn(client, forwardedProto: "https").headers[.setCookie])
            #expect(overTLS.hasSuffix("; Secure"), "behind a TLS proxy the session cookie is Secure")
            let cookie = try #require(Self.sessionCookie(accepted))
            #expect(!cookie.contains(ServerHarness.secretKey))
            #expect(try await page(client, "/dashboard", cookie: cookie).status == .ok)

            var tampered = cookie
            tampered.removeLast()
            tampered += cookie.hasSuffix("A") ? "B" : "A"
            #expect(try await page(client, "/dashboard", cookie: tampered).status == .seeOther)

            harness.clock.set(AnalyticsLedger.at("2026-04-01T20:00:01Z"))
            #expect(try await page(client, "/dashboard", cookie: cookie).status == .seeOther)

            let signedOut = try await client.execute(uri: "/dashboard/logout", method: .post, headers: [.cookie: cookie])
            #expect(signedOut.status == .seeOther)
            #expect(signedOut.headers[.setCookie]?.contains("Max-Age=0") == true)
        }
    }

    @Test("signing out revokes the session in the database: a copy of the cookie is refused afterwards, on another instance sharing it too",
          arguments: StorageEngine.databases)
    func logOutRevokes(engine: StorageEngine) async throws {
        try await withLedger(engine: engine) { harness, client in
            let cookie = try #require(Self.sessionCookie(try await signIn(client)))
            let other = try await ServerHarness.application(store: harness.store, pki: harness.pki, clock: harness.clock, keys: harness.keys)
            try await other.test(.router) { otherClient in
                // The other instance accepts the session the first one issued (and the database holds only its hash).
                #expect(try await page(otherClient, "/dashboard", cookie: cookie).status == .ok)
                let value = String(cookie.dropFirst("entitle_session=".count))
                #expect(try await harness.store.dashboardSessionStore().session(hash: Self.sha256(value)) != nil)

                let signedOut = try await client.execute(uri: "/dashboard/logout", method: .post, headers: [.cookie: cookie])
                #expect(signedOut.status == .seeOther)
                // A copy of the cookie, kept by whoever had it: refused by both instances, within the twelve hours.
                #expect(try await page(client, "/dashboard", cookie: cookie).status == .seeOther)
                #expect(try await page(otherClient, "/dashboard", cookie: cookie).status == .seeOther)
                #expect(try await harness.store.dashboardSessionStore().session(hash: Self.sha256(value))?.revokedAt == harness.clock.now)
            }
        }
    }

    @Test("a state-changing dashboard request from another origin is refused, whatever cookie it carries; the dashboard's own are accepted")
    func crossOrigin() async throws {
        try await withLedger { harness, client in
            let cookie = try #require(Self.sessionCookie(try await signIn(client)))
            func post(_ uri: String, _ extra: [(String, String)], body: String = "kind=app") async throws -> TestResponse {
                var headers: HTTPFields = [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"]
                for (name, value) in extra { headers[HTTPField.Name(name)!] = value }
                return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
            }
            for foreign in [[("Origin", "https://evil.example")], [("Origin", "null")], [("Sec-Fetch-Site", "cross-site")],
                            [("Origin", "http://localhost.evil.example")], [("Sec-Fetch-Site", "same-site"), ("Origin", "https://evil.example")]] {
                for uri in ["/dashboard/keys", "/dashboard/logout", "/dashboard/login"] {
                    let refused = try await post(uri, foreign)
                    #expect(refused.status == .forbidden, "\(uri) \(foreign)")
                    #expect(ServerHarness.errorCode(refused) == "auth.forbidden")
                }
            }
            #expect(try await page(client, "/dashboard/keys", cookie: cookie).status == .ok, "a foreign logout changed nothing")
            #expect(try await harness.store.keyStore().keys(app: nil).isEmpty, "no key was created from another origin")
            // The dashboard's own form, as a browser sends it (the test client's Host is localhost).
            let own = try await post("/dashboard/keys", [("Origin", "http://localhost"), ("Sec-Fetch-Site", "same-origin")])
            #expect(own.status == .seeOther || own.status == .ok, "\(String(buffer: own.body))")
            #expect(try await harness.store.keyStore().keys(app: nil).count == 1)
            // What Chromium sends from a page whose referrer policy is no-referrer: Origin null, and its own word that it's same-origin.
            let nullOrigin = try await post("/dashboard/keys", [("Origin", "null"), ("Sec-Fetch-Site", "same-origin")])
            #expect(nullOrigin.status == .seeOther || nullOrigin.status == .ok)
            #expect(try await harness.store.keyStore().keys(app: nil).count == 2)
        }
    }

    @Test("the overview shows the figures and charts of the report, with no external resource")
    func overviewPage() async throws {
        try await withLedger { _, client in
            let cookie = try #require(Self.sessionCookie(try await signIn(client)))
            let response = try await page(client, "/dashboard?\(Self.range)", cookie: cookie)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
            let html = String(buffer: response.body)
            #expect(html.contains(#"data-metric="mrr-USD" data-value="7990""#))
            #expect(html.contains(#"data-metric="arr-USD" data-value="95880""#))
            #expect(html.contains(#"data-metric="active-paid" data-value="1""#))
            for chart in ["mrr", "active", "trials", "churn", "refunds", "revenue"] {
                #expect(html.contains(#"<svg class="chart" data-chart="\#(chart)""#), "\(chart)")
                #expect(html.contains("/dashboard/export/\(chart).csv?from=2026-01-01&amp;to=2026-03-31"), "\(chart)")
            }
            #expect(html.contains(#"<rect x="#) && html.contains(#"data-label="2026-02" data-value="50.0""#))  // February's churn bar
            #expect(!html.contains("<script"))
            #expect(!html.contains("https://"))
        }
    }

    @Test("the business checks on April 1st: Dan's March trial ended unconverted, Carol's app-managed trial converted, no revenue the week before yesterday; the overview's panel and /metrics agree")
    func businessChecks() async throws {
        try await withLedger { _, client in
            let cookie = try #require(Self.sessionCookie(try await signIn(client)))
            let html = String(buffer: try await page(client, "/dashboard", cookie: cookie).body)
            #expect(html.contains("<section class=\"panel\" data-checks><h2>Business checks <span class=\"muted\">on 2026-04-01</span>"))
            #expect(html.contains("<td>Introductory trial conversion</td><td>0.0%</td><td>below 10.0%</td><td><strong class=\"error\" data-firing>alert</strong></td>"))
            #expect(html.contains("<td>App-managed trial conversion</td><td>100.0%</td><td>below 10.0%</td><td>ok</td>"))
            #expect(!html.contains("Revenue drop"))
            #expect(html.contains("<td>Paywall bounce</td><td>–</td><td>above 70.0%</td><td><span class=\"muted\">nothing to measure</span></td>"))
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get, headers: [:]).body).split(separator: "\n")
            func sample(_ name: String, _ check: String) -> String? {
                metrics.first { $0.hasPrefix(name + "{") && $0.contains(#"check="\#(check)""#) }.map { String($0.split(separator: " ").last ?? "") }
            }
            #expect(sample("entitle_business_check_ratio", "trial_conversion").flatMap(Double.init) == 0)
            #expect(sample("entitle_business_check_threshold_ratio", "trial_conversion").flatMap(Double.init) == 0.1)
            #expect(sample("entitle_business_check_ratio", "app_trial_conversion").flatMap(Double.init) == 1)
            #expect(sample("entitle_business_check_ratio", "revenue_drop") == nil)
            #expect(sample("entitle_business_check_ratio", "paywall_bounce") == nil)
            #expect(sample("entitle_business_check_threshold_ratio", "paywall_bounce").flatMap(Double.init) == 0.7)
        }
    }

    @Test("cohorts, products and the subscriber timeline render the ledger's facts")
    func otherPages() async throws {
        try await withLedger { _, client in
            let cookie = try #require(Self.sessionCookie(try await signIn(client)))
            let cohorts = String(buffer: try await page(client, "/dashboard/cohorts?\(Self.range)", cookie: cookie).body)
            // A heat map per currency: the amounts once, the currency in the heading, each cell shaded by its share of the highest.
            #expect(cohorts.contains("<h2>Realized LTV per customer (USD)"))
            let january = try #require(cohorts.firstRange(of: "<td>2026-01</td><td>3</td>").map { String(cohorts[$0.lowerBound...].prefix(while: { $0 != "\n" })) })
            let values = january.matches(of: /data-heat="([0-9.]+)">([0-9.,]+)<\/td>/).map { (String($0.output.1), String($0.output.2)) }
            #expect(values.map(\.1).prefix(3) == ["9.66", "16.65", "19.31"])
            #expect(values.map(\.0).prefix(3) == ["0.500", "0.862", "1.000"])
            let products = String(buffer: try await page(client, "/dashboard/products?\(Self.range)", cookie: cookie).body)
            #expect(products.contains("<td>\(AnalyticsLedger.individual)</td><td>individual</td><td>1</td>"))

            let search = String(buffer: try await page(client, "/dashboard/subscribers?q=B", cookie: cookie).body)
            #expect(search.contains("belongs to <a href=\"/dashboard/subscribers/bob\">bob</a>"))
            let prefix = String(buffer: try await page(client, "/dashboard/subscribers?q=al", cookie: cookie).body)
            #expect(prefix.contains("<a href=\"/dashboard/subscribers/alice\">alice</a>"))
            let none = String(buffer: try await page(client, "/dashboard/subscribers?q=%3Cscript%3E", cookie: cookie).body)
            #expect(none.contains("No subscriber or purchase matches") && none.contains("&lt;script&gt;") && !none.contains("<script>"))

            // Without a search: the recent subscribers, latest first, filtered by purchase state and product.
            func listed(_ query: String) async throws -> [String] {
                let html = String(buffer: try await page(client, "/dashboard/subscribers\(query)", cookie: cookie).body)
                return html.matches(of: /<tr><td><a href="\/dashboard\/subscribers\/[^"]*">([^<]*)<\/a><\/td>/).map { String($0.output.1) }
            }
            // Bob's latest event (his expiry, March 20) is the latest of all; Alice renewed that day too, at the same instant.
            let recent = try await listed("")
            #expect(Set(recent) == ["alice", "bob", "carol", "dan", "erin"])
            #expect(recent.first == "bob" || recent.first == "alice")
            #expect(try await listed("?state=revoked") == ["carol"])
            #expect(try await listed("?state=trial").isEmpty)
            #expect(Set(try await listed("?state=expired&product=\(AnalyticsLedger.family)")).isSuperset(of: ["dan", "bob"]))
            #expect(!(try await listed("?state=expired&product=\(AnalyticsLedger.family)")).contains("alice"))
            #expect(try await page(client, "/dashboard/subscribers?state=lapsed", cookie: cookie).status == .badRequest)
            #expect(try await page(client, "/dashboard/subscribers?product=com.other.product", cookie: cookie).status == .badRequest)

            let carol = String(buffer: try await page(client, "/dashboard/subscribers/carol", cookie: cookie).body)
            #expect(carol.contains("REFUND"))
            #expect(carol.contains(#"<tr class="changed"><td>2026-02-10T12:00:00Z</td><td>app_store_notification</td><td>REFUND</td>"#))
            #expect(try await page(client, "/dashboard/subscribers/nobody", cookie: cookie).status == .notFound)
        }
    }

    @Test("every chart's data exports as CSV, from the dashboard and from the API", arguments: ["mrr", "active", "trials", "churn", "refunds", "revenue", "monthly", "cohorts", "products", "entitlements"])
    func csv(chart: String) async throws {
        try await withLedger { harness, client in
            let cookie = try #require(Self.sessionCookie(try await signIn(client)))
            let fromDashboard = try await page(client, "/dashboard/export/\(chart).csv?\(Self.range)", cookie: cookie)
            #expect(fromDashboard.status == .ok)
            #expect(fromDashboard.headers[.contentType] == "text/csv; charset=utf-8")
            let fromAPI = try await harness.get(client, "/v1/analytics/export/\(chart)?\(Self.range)", key: ServerHarness.secretKey)
            #expect(String(buffer: fromAPI.body) == String(buffer: fromDashboard.body))
            let lines = String(buffer: fromAPI.body).components(separatedBy: "\r\n").filter { !$0.isEmpty }
            let expectedRows = ["mrr": 90, "active": 90, "trials": 3, "churn": 3, "refunds": 3, "revenue": 3, "monthly": 3, "cohorts": 2, "products": 1, "entitlements": 1]
            #expect(lines.count == 1 + (expectedRows[chart] ?? -1))
            if chart == "churn" { #expect(lines == ["month,active_at_start,expirations,reactivations,churn_rate", "2026-01,0,0,0,", "2026-02,2,1,0,0.5000", "2026-03,2,1,0,0.5000"]) }
            if chart == "mrr" { #expect(lines.last == "2026-03-31,7.990") }
        }
    }

    @Test("with several apps the dashboard has an app switcher; each page shows the app chosen, remembered in a cookie")
    func appSwitcher() async throws {
        try await ServedAppsTests.run(engine: .sqlite) { _, _, client in
            // One subscriber in each app, under different IDs.
            try await ServedAppsTests.request(client, .post, "/v1/subscribers/st-parent/trial", app: ServedAppsTests.screenTime, key: ServerHarness.secretKey)
            try await ServedAppsTests.request(client, .post, "/v1/subscribers/ep-reader/trial", app: ServedAppsTests.epilogue, key: ServerHarness.secretKey)
            let session = try #require(Self.sessionCookie(try await signIn(client)))
            let first = String(buffer: try await page(client, "/dashboard/subscribers?q=st-parent", cookie: session).body)
            #expect(first.contains("data-apps") && first.contains(#"data-current-app>com.screentimerewards<"#))
            #expect(first.contains("/dashboard/subscribers/st-parent"))

            let switched = try await page(client, "/dashboard/apps/\(ServedAppsTests.epilogue)", cookie: session)
            #expect(switched.status == .seeOther)
            let appCookie = try #require(Self.sessionCookie(switched))
            let cookies = "\(session); \(appCookie)"
            let second = String(buffer: try await page(client, "/dashboard/subscribers?q=ep-reader", cookie: cookies).body)
            #expect(second.contains(#"data-current-app>com.epilogue.app<"#))
            #expect(second.contains("/dashboard/subscribers/ep-reader"))
            let other = String(buffer: try await page(client, "/dashboard/subscribers?q=st-parent", cookie: cookies).body)
            #expect(!other.contains("/dashboard/subscribers/st-parent"), "another app's subscriber is not found")
            #expect(try await page(client, "/dashboard/apps/com.other.app", cookie: session).status == .notFound)
        }
    }

    @Test("All apps: the overview adds every app's figures up, currencies apart; subscriber search asks for an app")
    func allAppsTogether() async throws {
        try await ServedAppsTests.run(engine: .sqlite) { screenTime, epilogue, client in
            let family = screenTime.apple.subscription(ServedAppsTests.family, original: "960", purchase: ReferenceTime.start, expires: ReferenceTime.day(31))
            let plus = epilogue.apple.subscription(ServedAppsTests.plus, original: "961", purchase: ReferenceTime.start, expires: ReferenceTime.day(31))
            for (harness, app, transaction, user) in [(screenTime, ServedAppsTests.screenTime, family, "p1"), (epilogue, ServedAppsTests.epilogue, plus, "r1")] {
                try await ServedAppsTests.request(client, .post, "/v1/subscribers/\(user)/transactions", app: app, key: ServerHarness.secretKey,
                                                  body: ServerHarness.json(SubmitTransactionRequest(signedTransaction: harness.pki.sign(transaction))))
            }
            screenTime.clock.set(ReferenceTime.day(10))
            var mrr: Int64 = 0
            for app in [ServedAppsTests.screenTime, ServedAppsTests.epilogue] {
                let report = try ServerHarness.decode(AnalyticsReport.self, try await ServedAppsTests.request(
                    client, .get, "/v1/analytics/overview", app: app, key: ServerHarness.secretKey))
                let own = report.current.mrr["USD"] ?? 0
                #expect(own > 0, "\(app)")
                mrr += own
            }
            let session = try #require(Self.sessionCookie(try await signIn(client)))
            let all = try #require(Self.sessionCookie(try await page(client, "/dashboard/apps/all", cookie: session)))
            let overview = String(buffer: try await page(client, "/dashboard", cookie: "\(session); \(all)").body)
            #expect(overview.contains(#"data-current-app>All apps<"#))
            #expect(overview.contains(#"data-metric="mrr-USD" data-value="\#(mrr)""#))
            let search = try await page(client, "/dashboard/subscribers?q=p1", cookie: "\(session); \(all)")
            #expect(String(buffer: search.body).contains("choose an app"))
        }
    }

    @Test("the keys page: create an app key (shown once), see it listed by its first characters, revoke it")
    func keysPage() async throws {
        try await ServerHarness.run { harness, client in
            let session = try #require(Self.sessionCookie(try await signIn(client)))
            var headers = HTTPFields()
            headers[.cookie] = session
            headers[.contentType] = "application/x-www-form-urlencoded"
            let created = try await client.execute(uri: "/dashboard/keys", method: .post, headers: headers, body: ByteBuffer(string: "kind=app&name=iOS+app"))
            let page = String(buffer: created.body)
            let key = try #require(page.range(of: #"(?<=<code data-new-key>)ak_[A-Za-z0-9_-]+"#, options: .regularExpression).map { String(page[$0]) })
            #expect(try await harness.get(client, "/v1/subscribers/reader", key: key).status == .ok)

            let listed = String(buffer: try await self.page(client, "/dashboard/keys", cookie: session).body)
            #expect(listed.contains("iOS app") && listed.contains(String(key.prefix(10))) && !listed.contains(key))
            let id = try #require(listed.range(of: #"key_[A-Za-z0-9_-]{16}"#, options: .regularExpression).map { String(listed[$0]) })
            let revoked = try await client.execute(uri: "/dashboard/keys/\(id)/revoke", method: .post, headers: headers, body: ByteBuffer())
            #expect(revoked.status == .seeOther)
            harness.clock.set(harness.clock.now.addingTimeInterval(StoredKeys.cacheLifetime + 1))
            #expect(try await harness.get(client, "/v1/subscribers/reader", key: key, expect: .unauthorized).status == .unauthorized)
        }
    }

    @Test("the webhooks page: add an endpoint (secret shown once), send a test, see the delivery with its attempt, replay, remove")
    func webhooksPage() async throws {
        try await WebhookReceiver.run { url, receiver in
            try await ServerHarness.run { harness, client in
                let session = try #require(Self.sessionCookie(try await signIn(client)))
                var headers = HTTPFields()
                headers[.cookie] = session
                headers[.contentType] = "application/x-www-form-urlencoded"
                let form = "url=" + (url.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") + "&events=test%2C+renewal"
                let created = String(buffer: try await client.execute(uri: "/dashboard/webhooks", method: .post, headers: headers, body: ByteBuffer(string: form)).body)
                let secret = try #require(created.range(of: #"(?<=<code data-new-secret>)whsec_[A-Za-z0-9_-]+"#, options: .regularExpression).map { String(created[$0]) })
                let id = try #require(created.range(of: #"we_[0-9a-f]{20}"#, options: .regularExpression).map { String(created[$0]) })
                #expect(created.contains("renewal, test"))

                let tested = try await client.execute(uri: "/dashboard/webhooks/\(id)/test", method: .post, headers: headers, body: ByteBuffer())
                #expect(tested.status == .seeOther)
                try await WebhookDeliveryTests.pass(harness.service())
                #expect(WebhookDeliveryTests.signed(try #require(receiver.accepted.first), secret: secret))
                let listed = String(buffer: try await self.page(client, "/dashboard/webhooks", cookie: session).body)
                #expect(!listed.contains(secret), "a secret is shown once")
                #expect(listed.contains("1 delivered") && listed.contains("<code>test</code>") && listed.contains("#1 ") && listed.contains(" 200 "))

                let replayed = try await client.execute(uri: "/dashboard/webhooks/\(id)/replay", method: .post, headers: headers, body: ByteBuffer())
                #expect(replayed.status == .seeOther)
                let unknown = try await client.execute(uri: "/dashboard/webhooks/\(id)/explode", method: .post, headers: headers, body: ByteBuffer())
                #expect(unknown.status == .notFound)
                let removed = try await client.execute(uri: "/dashboard/webhooks/\(id)/remove", method: .post, headers: headers, body: ByteBuffer())
                #expect(removed.status == .seeOther)
                let after = String(buffer: try await self.page(client, "/dashboard/webhooks", cookie: session).body)
                #expect(after.contains("No endpoints yet."))
            }
        }
    }
}
