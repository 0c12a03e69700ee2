import AppStoreModels
import AppStoreServerAPI
import AppStoreVerification
import Crypto
import EntitleCore
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocalAppStore
import Logging
import NIOCore
import Testing

/// The server's routes that reach Apple's App Store Server API — reconciliation, validation by
/// transaction ID, a subscriber's refresh — and promotional offers signed with the team's key, against
/// the local App Store Server API on loopback (which checks each token as Apple does).
@Suite("App Store Server API routes")
struct AppStoreServerAPIRoutesTests {
    static let bundleID = "com.epilogue.app"
    static let monthly = "com.epilogue.plus.monthly"

    struct Setup: Sendable {
        let harness: ServerHarness
        let api: LocalServerAPI
        let teamKey: InAppPurchaseKey
        /// The server's port on loopback, for a command run against it.
        var port: Int? = nil
        /// The server's client of the local App Store Server API.
        var serverAPI: AppStoreServerAPIClient? = nil
        let secret = ServerHarness.secretKey

        func headers() -> String { secret }
    }

    static func run(
        engine: StorageEngine = .sqlite, consumptionInterval: Duration? = nil, importInterval: Duration? = .milliseconds(100),
        catalog: Catalog = Fixtures.exampleCatalog("Epilogue"),
        _ body: @Sendable (Setup, any TestClientProtocol, inout StoreSimulator) async throws -> Void
    ) async throws {
        let clock = TestClock()
        let authority = try TestAuthority.shared()
        let teamKey = InAppPurchaseKey(privateKey: P256.Signing.PrivateKey(), keyID: "KEY0000001", issuerID: "issuer-team")
        let api = LocalServerAPI(
            credentials: .init(keyID: teamKey.keyID, issuerID: teamKey.issuerID, bundleID: bundleID, publicKey: teamKey.privateKey.publicKey),
            store: .init(signer: authority.signer, deliver: { _ in false }), now: clock.reading)
        let apple = Application(router: api.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await apple.test(.live) { appleClient in
            let port = try #require(appleClient.port)
            let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
            let keys = try APIKeys(secretKeys: [ServerHarness.secretKey], publicKeySecret: "public-key-secret-for-tests")
            try await engine.withStore { store in
                let verifiers = [SignedDataVerifier(
                    configuration: VerifierConfiguration(bundleID: bundleID, environment: .sandbox, rootCertificates: [authority.root]), now: clock.reading)]
                let serverAPI = AppStoreServerAPIClient(
                    token: teamKey.token(bundleID: bundleID), endpoints: .init(production: base, sandbox: nil), verifiers: verifiers,
                    retryDelay: .milliseconds(10), now: clock.reading)
                var configuration = ServerConfiguration(
                    http: HTTPConfiguration(host: "127.0.0.1", port: 0), ledger: .store(store),
                    apps: [ServedApp(bundleID: BundleID(bundleID), catalog: catalog, verifiers: verifiers, serverAPI: serverAPI, offerKey: teamKey)], keys: keys,
                    analyticsRefreshInterval: nil, now: clock.reading, logger: Logger(label: "entitle.tests.server-api"))
                configuration.reconciliationInterval = nil
                configuration.consumptionInterval = consumptionInterval
                configuration.importInterval = importInterval
                let app = try await buildApplication(configuration: configuration)
                let harness = ServerHarness(
                    pki: try TestPKI.shared(), apple: AppleFacts(bundleID: bundleID), clock: clock, store: store.forApp(BundleID(bundleID)), keys: keys, bundleID: bundleID,
                    authority: authority, catalog: catalog)
                try await app.test(.live) { client in
                    var simulator = StoreSimulator(catalog: catalog, bundleID: bundleID, environment: .sandbox, signer: authority.signer)
                    try await body(Setup(harness: harness, api: api, teamKey: teamKey, port: client.port, serverAPI: serverAPI), client, &simulator)
                }
            }
        }
    }

    /// What the store sent, recorded in its history only: the webhook never hears of it.
    static func lose(_ notifications: [SignedNotification], _ setup: Setup) {
        for notification in notifications { setup.api.record(notification: notification.signedPayload, at: notification.signedDate) }
    }

    /// Starts a pass (answered at once: 202 and the job), then polls the job until it ends.
    static func reconcile(_ setup: Setup, _ client: any TestClientProtocol, since: Date? = nil) async throws -> ReconciliationResponse {
        let started = try await setup.harness.post(
            client, "/v1/reconciliation", key: setup.secret, body: ServerHarness.json(ReconciliationRequest(since: since)), expect: .accepted)
        var job = try ServerHarness.decode(ReconciliationJobResponse.self, started)
        #expect(started.headers[.location] == "/v1/reconciliation/\(job.id)")
        for _ in 0..<600 where job.state == "running" {
            try await Task.sleep(for: .milliseconds(50))
            job = try ServerHarness.decode(ReconciliationJobResponse.self, try await setup.harness.get(client, "/v1/reconciliation/\(job.id)", key: setup.secret))
        }
        #expect(job.state == "completed", "\(String(describing: job.error))")
        return try #require(job.report)
    }

    @Test("a pass ingests the notifications the webhook never got, once; a second pass adds nothing; each is on the timeline as app_store_server_api",
          arguments: StorageEngine.databases)
    func reconciliation(engine: StorageEngine) async throws {
        try await Self.run(engine: engine) { setup, client, store in
            let harness = setup.harness
            let start = harness.clock.now
            let purchase = try store.purchase(Self.monthly, appAccountToken: AccountTokens(bundleID: BundleID(Self.bundleID)).token(for: "reader"), at: start)
            try await harness.post(
                client, "/v1/subscribers/reader/transactions", key: setup.secret,
                body: ServerHarness.json(SubmitTransactionRequest(signedTransaction: purchase.signedTransaction)))
            Self.lose(purchase.notifications, setup)
            let renewedAt = try #require(store.subscription(purchase.originalTransactionID)?.expiresDate)
            harness.clock.set(renewedAt)
            Self.lose(try store.renew(purchase.originalTransactionID), setup)
            harness.clock.set(renewedAt.addingTimeInterval(3_600))
            let first = try await Self.reconcile(setup, client)
            #expect(first.notificationsRead == 2)
            #expect(first.notificationsAdded == 2)
            #expect(first.skipped == false)
            let answer = try ServerHarness.decode(
                SubscriberResponse.self, try await harness.get(client, "/v1/subscribers/reader", key: setup.secret))
            let subscription = try #require(answer.subscriptions.first)
            #expect(subscription.expiresAt == store.subscription(purchase.originalTransactionID)?.expiresDate)
            let timeline = try ServerHarness.decode(
                [TimelineEvent].self, try await harness.get(client, "/v1/subscribers/reader/events", key: setup.secret))
            #expect(timeline.filter { $0.source == "app_store_server_api" }.count == 2)
            let second = try await Self.reconcile(setup, client)
            #expect(second.notificationsAdded == 0)
            #expect(second.from < first.to)
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get, headers: [:]).body)
            #expect(metrics.contains(#"entitle_reconciliation_passes_total{app="com.epilogue.app",outcome="completed"} 2"#))
            #expect(metrics.contains(#"entitle_reconciliation_events_added_total{app="com.epilogue.app"} 2"#))
        }
    }

    @Test("a subscription past its expiry with no news is asked about, and Apple's answer settles it, behind more than two pages of other subscribers")
    func unsettled() async throws {
        try await Self.run { setup, client, store in
            let harness = setup.harness
            // Subscribers whose IDs sort before the reader's: the pass reads them page by page first.
            let others = (0..<(2 * AppStoreSyncService.reconciliationPage + 100)).map { number in
                LedgerEvents.admin(number + 1, appUserID: AppUserID(String(format: "a-%05d", number)), at: harness.clock.now, .appTrialStarted(at: harness.clock.now))
            }
            _ = try await harness.store.append(contentsOf: others)
            let purchase = try store.purchase(Self.monthly, at: harness.clock.now)
            try await harness.post(
                client, "/v1/subscribers/reader/transactions", key: setup.secret,
                body: ServerHarness.json(SubmitTransactionRequest(signedTransaction: purchase.signedTransaction)))
            // Auto-renew off and the expiry are signed and sent, but before the window this pass reads.
            let expires = try #require(store.subscription(purchase.originalTransactionID)?.expiresDate)
            Self.lose(try store.setAutoRenew(purchase.originalTransactionID, false, at: expires.addingTimeInterval(-86_400)), setup)
            harness.clock.set(expires)
            Self.lose(try store.expire(purchase.originalTransactionID, reason: .voluntary), setup)
            harness.clock.set(expires.addingTimeInterval(86_400))
            let report = try await Self.reconcile(setup, client, since: expires.addingTimeInterval(3_600))
            #expect(report.notificationsAdded == 0)
            #expect(report.purchasesChecked == 1)
            #expect(report.statusEventsAdded >= 1)
            let answer = try ServerHarness.decode(
                SubscriberResponse.self, try await harness.get(client, "/v1/subscribers/reader", key: setup.secret))
            #expect(answer.subscriptions.first?.state.rawValue == "expired")
            #expect(answer.subscriptions.first?.willRenew == false)
            // Settled: the next pass asks no more.
            #expect(try await Self.reconcile(setup, client).purchasesChecked == 0)
        }
    }

    @Test("a pass asks about more unsettled purchases than it has in flight: each Apple answers is settled, each it doesn't know is counted unanswered and asked again")
    func unsettledMany() async throws {
        try await Self.run { setup, client, store in
            let harness = setup.harness
            let start = harness.clock.now
            var originals: [String] = []
            for number in 0..<(AppStoreSyncService.statusChecksInFlight + 4) {
                let purchase = try store.purchase(Self.monthly, at: start)
                try await harness.post(
                    client, "/v1/subscribers/r-\(number)/transactions", key: setup.secret,
                    body: ServerHarness.json(SubmitTransactionRequest(signedTransaction: purchase.signedTransaction)))
                originals.append(purchase.originalTransactionID)
            }
            let expires = try #require(store.subscription(originals[0])?.expiresDate)
            // Purchases Apple has no record of (another environment's, say): asked about, unanswered.
            let apple = AppleFacts(bundleID: Self.bundleID)
            let unknown = (0..<3).map { number in
                LedgerEvents.appTransaction(
                    9_000 + number, appUserID: AppUserID("ghost-\(number)"),
                    apple.subscription(Self.monthly, original: "G\(number)", id: "G\(number)-1", purchase: start, expires: expires))
            }
            _ = try await harness.store.append(contentsOf: unknown)
            for original in originals { Self.lose(try store.setAutoRenew(original, false, at: expires.addingTimeInterval(-86_400)), setup) }
            harness.clock.set(expires)
            for original in originals { Self.lose(try store.expire(original, reason: .voluntary), setup) }
            harness.clock.set(expires.addingTimeInterval(86_400))
            let report = try await Self.reconcile(setup, client, since: expires.addingTimeInterval(3_600))
            #expect(report.purchasesChecked == originals.count + unknown.count)
            #expect(report.purchasesUnanswered == unknown.count)
            #expect(report.statusEventsAdded >= originals.count)
            for number in originals.indices {
                let answer = try ServerHarness.decode(
                    SubscriberResponse.self, try await harness.get(client, "/v1/subscribers/r-\(number)", key: setup.secret))
                #expect(answer.subscriptions.first?.state.rawValue == "expired")
            }
            // The settled are asked no more; the unanswered are asked again.
            let second = try await Self.reconcile(setup, client)
            #expect(second.purchasesChecked == unknown.count && second.purchasesUnanswered == unknown.count)
        }
    }

    @Test("validate by transaction ID: the server fetches the transaction from Apple; an unknown one is 404 appStore.notFound; both fields are 400")
    func validateByTransactionID() async throws {
        try await Self.run { setup, client, store in
            let harness = setup.harness
            let purchase = try store.purchase(Self.monthly, at: harness.clock.now)
            setup.api.record(transaction: purchase.signedTransaction, purchase.transaction)
            let response = try await harness.post(
                client, "/v1/subscribers/reader/transactions", key: setup.secret,
                body: ServerHarness.json(SubmitTransactionRequest(transactionId: purchase.originalTransactionID)))
            let answer = try ServerHarness.decode(SubscriberResponse.self, response)
            #expect(answer.subscriptions.map(\.originalTransactionID) == [purchase.originalTransactionID])
            let missing = try await harness.post(
                client, "/v1/subscribers/reader/transactions", key: setup.secret,
                body: ServerHarness.json(SubmitTransactionRequest(transactionId: "9999999999")), expect: .notFound)
            #expect(ServerHarness.errorCode(missing) == "appStore.notFound")
            let both = #"{"signedTransaction":"a.b.c","transactionId":"1"}"#
            try await harness.post(client, "/v1/subscribers/reader/transactions", key: setup.secret, body: ByteBuffer(string: both), expect: .badRequest)
        }
    }

    @Test("a lapsed subscriber gets the win-back offer signed as Apple verifies it; an active one is 403 offer.notEligible; an unknown offer 400")
    func promotionalOffers() async throws {
        try await Self.run { setup, client, store in
            let harness = setup.harness
            let request = PromotionalOfferRequest(productID: Self.monthly, offerID: "winback.plus.half")
            let purchase = try store.purchase(Self.monthly, at: harness.clock.now)
            try await harness.post(
                client, "/v1/subscribers/reader/transactions", key: setup.secret,
                body: ServerHarness.json(SubmitTransactionRequest(signedTransaction: purchase.signedTransaction)))
            let active = try await harness.post(
                client, "/v1/subscribers/reader/promotional-offers", key: setup.secret, body: ServerHarness.json(request), expect: .forbidden)
            #expect(ServerHarness.errorCode(active) == "offer.notEligible")
            let never = try await harness.post(
                client, "/v1/subscribers/newcomer/promotional-offers", key: setup.secret, body: ServerHarness.json(request), expect: .forbidden)
            #expect(ServerHarness.errorCode(never) == "offer.notEligible")
            try await harness.post(
                client, "/v1/subscribers/reader/promotional-offers", key: setup.secret,
                body: ServerHarness.json(PromotionalOfferRequest(productID: Self.monthly, offerID: "free.forever")), expect: .badRequest)

            harness.clock.set(try #require(store.subscription(purchase.originalTransactionID)?.expiresDate).addingTimeInterval(86_400))
            let response = try await harness.post(
                client, "/v1/subscribers/reader/promotional-offers", key: setup.secret, body: ServerHarness.json(request))
            let offer = try ServerHarness.decode(PromotionalOfferResponse.self, response)
            #expect(offer.keyID == setup.teamKey.keyID)
            #expect(offer.timestamp == Int64((harness.clock.now.timeIntervalSince1970 * 1000).rounded(.down)))
            #expect(offer.appAccountToken == AccountTokens(bundleID: BundleID(Self.bundleID)).token(for: "reader"))
            let payload = PromotionalOfferSignature.payload(
                bundleID: Self.bundleID, keyID: offer.keyID, productID: Self.monthly, offerID: "winback.plus.half", appAccountToken: offer.appAccountToken,
                nonce: offer.nonce, timestamp: offer.timestamp)
            let signature = try P256.Signing.ECDSASignature(derRepresentation: try #require(Data(base64Encoded: offer.signature)))
            #expect(setup.teamKey.privateKey.publicKey.isValidSignature(signature, for: Data(payload.utf8)))
            let parts = offer.compactJWS.split(separator: ".").map(String.init)
            let jwsSignature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
            #expect(setup.teamKey.privateKey.publicKey.isValidSignature(jwsSignature, for: Data("\(parts[0]).\(parts[1])".utf8)))
            let claimsJSON = try #require(Base64URL.decode(parts[1]))
            let claims = try #require(try JSONSerialization.jsonObject(with: claimsJSON) as? [String: Any])
            #expect(claims["transactionId"] as? String == purchase.originalTransactionID)
            #expect(claims["bid"] as? String == Self.bundleID)
        }
    }

    @Test("a subscriber's offerings say which promotional offers the catalog's rule admits them to, as signing does; no introductory offer, no answer for it")
    func offeringsEligibility() async throws {
        try await Self.run { setup, client, store in
            let harness = setup.harness
            func monthly() async throws -> OfferedProduct? {
                let offerings = try ServerHarness.decode(
                    OfferingsResponse.self, try await harness.get(client, "/v1/subscribers/reader/offerings", key: setup.secret))
                return offerings.offerings.first?.subscriptionGroups.flatMap(\.products).first { $0.productID == Self.monthly }
            }
            let purchase = try store.purchase(Self.monthly, at: harness.clock.now)
            try await harness.post(
                client, "/v1/subscribers/reader/transactions", key: setup.secret,
                body: ServerHarness.json(SubmitTransactionRequest(signedTransaction: purchase.signedTransaction)))
            let active = try #require(try await monthly())
            #expect(active.eligiblePromotionalOfferIDs == [] && active.introductoryOfferEligible == nil && active.introductoryOfferEligibilityJWS == nil)
            harness.clock.set(try #require(store.subscription(purchase.originalTransactionID)?.expiresDate).addingTimeInterval(86_400))
            #expect(try await monthly()?.eligiblePromotionalOfferIDs == ["winback.plus.half"])
            // The catalog-wide offerings answer nobody's eligibility.
            let catalogWide = try ServerHarness.decode(OfferingsResponse.self, try await harness.get(client, "/v1/offerings", key: setup.secret))
            #expect(catalogWide.offerings.first?.subscriptionGroups.first?.products.first?.eligiblePromotionalOfferIDs == nil)
        }
    }

    @Test("a pass is a job: the request answers at once (202, Location), Prefer: wait=N waits for it (200, the report); an unknown job is 404")
    func reconciliationJob() async throws {
        try await Self.run { setup, client, _ in
            let harness = setup.harness
            var headers: HTTPFields = [.authorization: "Bearer \(setup.secret)", .contentType: "application/json", HTTPField.Name("Prefer")!: "wait=30"]
            let waited = try await client.execute(uri: "/v1/reconciliation", method: .post, headers: headers, body: ServerHarness.json(ReconciliationRequest()))
            #expect(waited.status == .ok)
            let job = try ServerHarness.decode(ReconciliationJobResponse.self, waited)
            #expect(job.state == "completed" && job.report?.app == Self.bundleID && job.finishedAt != nil)
            // Polled again, from any instance sharing the database: the same ending.
            let polled = try ServerHarness.decode(
                ReconciliationJobResponse.self, try await harness.get(client, "/v1/reconciliation/\(job.id)", key: setup.secret))
            #expect(polled == job)
            let unknown = try await harness.get(client, "/v1/reconciliation/job_unknown", key: setup.secret, expect: .notFound)
            #expect(ServerHarness.errorCode(unknown) == "request.notFound")
            headers[HTTPField.Name("Prefer")!] = "wait=31"
            let tooLong = try await client.execute(uri: "/v1/reconciliation", method: .post, headers: headers, body: ServerHarness.json(ReconciliationRequest()))
            #expect(tooLong.status == .badRequest)
            headers[HTTPField.Name("Prefer")!] = String(repeating: "0", count: 101)
            let oversized = try await client.execute(uri: "/v1/reconciliation", method: .post, headers: headers, body: ServerHarness.json(ReconciliationRequest()))
            #expect(oversized.status == .badRequest, "the document says Prefer is at most 100 bytes")
            // Another app's key can't read the job.
            try await harness.get(client, "/v1/reconciliation/\(job.id)", key: harness.publicKey("reader"), expect: .forbidden)
            // A job whose instance was killed mid-pass is told as failed an hour on, never running for ever.
            try await harness.store.adminJobStore().insertJob(AdminJob(
                id: "job_killed", kind: "reconciliation", state: .running, holder: "gone", createdAt: harness.clock.now.addingTimeInterval(-3_601)))
            let abandoned = try ServerHarness.decode(
                ReconciliationJobResponse.self, try await harness.get(client, "/v1/reconciliation/job_killed", key: setup.secret))
            #expect(abandoned.state == "failed" && abandoned.error?.code == "job.abandoned")
        }
    }

    @Test("without an in-app purchase key, the routes that need Apple answer 409 appStore.notConfigured")
    func notConfigured() async throws {
        try await ServerHarness.run { harness, client in
            let response = try await harness.post(
                client, "/v1/reconciliation", key: ServerHarness.secretKey, body: ByteBuffer(), expect: .conflict)
            #expect(ServerHarness.errorCode(response) == "appStore.notConfigured")
            let offer = try await harness.post(
                client, "/v1/subscribers/someone/transactions", key: ServerHarness.secretKey,
                body: ServerHarness.json(SubmitTransactionRequest(transactionId: "2000000000000001")), expect: .conflict)
            #expect(ServerHarness.errorCode(offer) == "appStore.notConfigured")
        }
    }

    /// A subscriber `reader` with a monthly subscription, submitted by the app; Apple's API knows it.
    static func subscribe(_ setup: Setup, _ client: any TestClientProtocol, _ store: inout StoreSimulator) async throws -> StorePurchase {
        let purchase = try store.purchase(Self.monthly, at: setup.harness.clock.now)
        setup.api.record(transaction: purchase.signedTransaction, purchase.transaction)
        try await setup.harness.post(
            client, "/v1/subscribers/reader/transactions", key: setup.secret,
            body: ServerHarness.json(SubmitTransactionRequest(signedTransaction: purchase.signedTransaction)))
        return purchase
    }

    @Test("an order ID from a receipt email finds the purchase and its subscriber; one Apple doesn't know is found: false")
    func orderLookup() async throws {
        try await Self.run { setup, client, store in
            let purchase = try await Self.subscribe(setup, client, &store)
            let order = LocalServerAPI.orderID(transactionID: purchase.originalTransactionID)
            let found = try ServerHarness.decode(OrderResponse.self, try await setup.harness.get(client, "/v1/orders/\(order)", key: setup.secret))
            #expect(found.found && found.purchases.map(\.appUserID) == ["reader"])
            #expect(found.purchases.first?.originalTransactionID == purchase.originalTransactionID)
            let unknown = try ServerHarness.decode(OrderResponse.self, try await setup.harness.get(client, "/v1/orders/MNOSUCHORDER", key: setup.secret))
            #expect(!unknown.found && unknown.purchases.isEmpty)
            try await setup.harness.get(client, "/v1/orders/not-an-order!", key: setup.secret, expect: .badRequest)
        }
    }

    @Test("extending a renewal date with Apple moves the subscriber's expiry at once, on the timeline; outside Apple's bounds is 400")
    func renewalExtension() async throws {
        try await Self.run { setup, client, store in
            let harness = setup.harness
            let purchase = try await Self.subscribe(setup, client, &store)
            let expires = try #require(store.subscription(purchase.originalTransactionID)?.expiresDate)
            harness.clock.set(harness.clock.now.addingTimeInterval(86_400))
            let response = try await harness.post(
                client, "/v1/subscribers/reader/renewal-extensions", key: setup.secret,
                body: ServerHarness.json(RenewalExtensionRequest(days: 7, reasonCode: 3)))
            let answer = try ServerHarness.decode(SubscriberResponse.self, response)
            #expect(answer.subscriptions.first?.expiresAt == expires.addingTimeInterval(7 * 86_400))
            let timeline = try ServerHarness.decode(
                [TimelineEvent].self, try await harness.get(client, "/v1/subscribers/reader/events", key: setup.secret))
            #expect(timeline.contains { $0.source == "app_store_server_api" })
            try await harness.post(
                client, "/v1/subscribers/reader/renewal-extensions", key: setup.secret,
                body: ServerHarness.json(RenewalExtensionRequest(days: 91, reasonCode: 1)), expect: .badRequest)
            try await harness.post(
                client, "/v1/subscribers/nobody/renewal-extensions", key: setup.secret,
                body: ServerHarness.json(RenewalExtensionRequest(days: 1, reasonCode: 1)), expect: .notFound)
            // Expired: Apple answers 403 4030004, the purchase's own state, so 409 rather than a gateway's 502.
            harness.clock.set(expires.addingTimeInterval(30 * 86_400))
            let ineligible = try await harness.post(
                client, "/v1/subscribers/reader/renewal-extensions", key: setup.secret,
                body: ServerHarness.json(RenewalExtensionRequest(days: 7, reasonCode: 3, originalTransactionID: purchase.originalTransactionID)),
                expect: .conflict)
            #expect(ServerHarness.errorCode(ineligible) == "appStore.ineligible")
        }
    }

    @Test("the dashboard's support tools: a subscriber's refresh and extension buttons, and the order look-up")
    func dashboardSupportTools() async throws {
        try await Self.run { setup, client, store in
            let purchase = try await Self.subscribe(setup, client, &store)
            var headers = HTTPFields()
            headers[.contentType] = "application/x-www-form-urlencoded"
            let login = try await client.execute(
                uri: "/dashboard/login", method: .post, headers: headers, body: ByteBuffer(string: "key=\(ServerHarness.secretKey)"))
            let cookie = try #require(login.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            headers[.cookie] = cookie
            let detail = try await client.execute(uri: "/dashboard/subscribers/reader", method: .get, headers: headers)
            #expect(String(buffer: detail.body).contains("data-support"))
            let expires = try #require(store.subscription(purchase.originalTransactionID)?.expiresDate)
            let extend = try await client.execute(
                uri: "/dashboard/subscribers/reader/extend", method: .post, headers: headers, body: ByteBuffer(string: "days=3&reason=1"))
            #expect(extend.status == .seeOther || extend.status == .found)
            let after = try ServerHarness.decode(
                SubscriberResponse.self, try await setup.harness.get(client, "/v1/subscribers/reader", key: setup.secret))
            #expect(after.subscriptions.first?.expiresAt == expires.addingTimeInterval(3 * 86_400))
            let refresh = try await client.execute(uri: "/dashboard/subscribers/reader/refresh", method: .post, headers: headers)
            #expect(refresh.status == .seeOther || refresh.status == .found)
            let order = LocalServerAPI.orderID(transactionID: purchase.originalTransactionID)
            let orders = try await client.execute(uri: "/dashboard/orders?order=\(order)", method: .get, headers: headers)
            #expect(String(buffer: orders.body).contains("/dashboard/subscribers/reader"))
        }
    }

    /// Waits (up to 10 s) until Apple's stand-in has consumption information for `transactionID`.
    static func consumptionReport(_ setup: Setup, _ transactionID: String) async throws -> LocalServerAPI.ConsumptionReport? {
        for _ in 0..<200 {
            if let report = setup.api.consumptionReport(transactionID: transactionID) { return report }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    @Test("a CONSUMPTION_REQUEST is answered with what the ledger knows: delivered, the share of the period used, the free trial first")
    func consumptionRequest() async throws {
        try await Self.run { setup, client, store in
            let harness = setup.harness
            let purchase = try await Self.subscribe(setup, client, &store)
            let expires = try #require(store.subscription(purchase.originalTransactionID)?.expiresDate)
            let purchased = try #require(purchase.transaction.purchaseDate)
            // A quarter of the way into the period, the customer asks for a refund.
            let asked = purchased.addingTimeInterval(expires.timeIntervalSince(purchased) / 4)
            harness.clock.set(asked)
            let request = try store.consumptionRequest(purchase.originalTransactionID, at: asked)
            try await harness.postNotification(client, request.signedPayload)
            let report = try #require(try await Self.consumptionReport(setup, purchase.originalTransactionID))
            #expect(report.customerConsented && report.deliveryStatus == "DELIVERED")
            #expect(report.consumptionPercentage == 25_000)
            #expect(report.sampleContentProvided == (Fixtures.exampleCatalog("Epilogue").product(ProductID(Self.monthly))?.introductoryOffer?.paymentMode == .freeTrial))
        }
    }

    @Test("a CONSUMPTION_REQUEST Apple couldn't take at once is answered from the cursor later; one past its 12 hours is not sent")
    func consumptionRetry() async throws {
        try await Self.run(consumptionInterval: .milliseconds(100)) { setup, client, store in
            let harness = setup.harness
            let late = try await Self.subscribe(setup, client, &store)
            let old = try store.consumptionRequest(late.originalTransactionID, at: harness.clock.now)
            harness.clock.set(harness.clock.now.addingTimeInterval(13 * 3_600))
            try await harness.postNotification(client, old.signedPayload)
            let purchase = try store.purchase(Self.monthly, at: harness.clock.now)
            setup.api.record(transaction: purchase.signedTransaction, purchase.transaction)
            try await harness.post(
                client, "/v1/subscribers/second/transactions", key: setup.secret,
                body: ServerHarness.json(SubmitTransactionRequest(signedTransaction: purchase.signedTransaction)))
            // Apple is down for the first attempts (each retried by the client), then up again.
            for _ in 0..<4 { setup.api.failNext(status: 503) }
            try await harness.postNotification(client, try store.consumptionRequest(purchase.originalTransactionID, at: harness.clock.now).signedPayload)
            #expect(try await Self.consumptionReport(setup, purchase.originalTransactionID) != nil)
            #expect(setup.api.consumptionReport(transactionID: late.originalTransactionID) == nil)
        }
    }

    @Test("a purchase held for want of an owner is linked when Apple's history carries an appAccountToken a subscriber registered")
    func heldPurchase() async throws {
        try await Self.run { setup, client, store in
            let harness = setup.harness
            // Bought outside the app (an offer code): no token; its notification arrives and is held.
            let purchase = try store.purchase(Self.monthly, at: harness.clock.now)
            for notification in purchase.notifications { try await harness.postNotification(client, notification.signedPayload) }
            #expect(try await harness.store.heldEventCount() == 1)
            // The customer's account here registers a token; the developer set it on the purchase with Apple.
            let token = UUID()
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            headers[.authorization] = "Bearer \(setup.secret)"
            let put = try await client.execute(
                uri: "/v1/subscribers/reader/app-account-token", method: .put, headers: headers,
                body: ServerHarness.json(AppAccountTokenRequest(appAccountToken: token)))
            #expect(put.status == .ok)
            var tokened = purchase.transaction
            tokened.appAccountToken = token
            tokened.signedDate = harness.clock.now.addingTimeInterval(60)
            setup.api.record(transaction: try harness.authority.signer.sign(tokened), tokened)
            harness.clock.set(harness.clock.now.addingTimeInterval(120))
            let report = try await Self.reconcile(setup, client)
            #expect(report.heldPurchasesChecked == 1 && report.heldPurchasesLinked == 1)
            #expect(try await harness.store.heldEventCount() == 0)
            let answer = try ServerHarness.decode(SubscriberResponse.self, try await harness.get(client, "/v1/subscribers/reader", key: setup.secret))
            #expect(answer.subscriptions.map(\.originalTransactionID) == [purchase.originalTransactionID])
            // Nothing held any more: the next pass looks nothing up.
            #expect(try await Self.reconcile(setup, client).heldPurchasesChecked == 0)
        }
    }
}
