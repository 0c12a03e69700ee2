import AppStoreModels
import AppStoreVerification
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
import NIOFoundationEssentialsCompat
import Testing
import X509

/// A real server on loopback over a fresh ledger on either engine, trusting an in-code PKI, with a hand-moved clock.
struct ServerHarness: Sendable {
    static let secretKey = "sk_test_0123456789abcdef"
    let pki: TestPKI
    let apple: AppleFacts
    let clock: TestClock
    let store: any LedgerStore
    let keys: APIKeys
    let bundleID: String
    /// The local App Store's authority, trusted beside the test PKI.
    let authority: LocalCertificateAuthority
    let catalog: Catalog

    static func run(engine: StorageEngine = .sqlite, example: String = "ScreenTimeRewards", bundleID: String = "com.screentimerewards",
                    restorePolicy: RestorePolicy = .keepWithOriginal, signer: CustomerInfoSigner? = nil, catalog: Catalog? = nil,
                    environments: [AppStoreModels.Environment] = [.sandbox],
                    _ body: @Sendable (ServerHarness, any TestClientProtocol) async throws -> Void) async throws {
        let pki = try TestPKI.shared()
        let clock = TestClock()
        let authority = try TestAuthority.shared()
        let keys = try APIKeys(secretKeys: [Self.secretKey], publicKeySecret: "public-key-secret-for-tests")
        try await engine.withStore { store in
            let app = try await application(
                store: store, pki: pki, clock: clock, keys: keys, example: example, bundleID: bundleID, restorePolicy: restorePolicy,
                alsoTrusting: [authority.root], signer: signer, catalog: catalog, environments: environments)
            let harness = ServerHarness(
                pki: pki, apple: AppleFacts(bundleID: bundleID), clock: clock, store: store.forApp(BundleID(bundleID)), keys: keys, bundleID: bundleID, authority: authority,
                catalog: catalog ?? Fixtures.exampleCatalog(example))
            try await app.test(.live) { client in
                try await body(harness, client)
            }
        }
    }

    /// A server over `store`, verifying with `pki`'s root at `clock`'s time.
    static func application(store: any LedgerStore, pki: TestPKI, clock: TestClock, keys: APIKeys, example: String = "ScreenTimeRewards",
                            bundleID: String = "com.screentimerewards", restorePolicy: RestorePolicy = .keepWithOriginal,
                            alsoTrusting roots: [Certificate] = [], signer: CustomerInfoSigner? = nil,
                            catalog: Catalog? = nil, environments: [AppStoreModels.Environment] = [.sandbox]) async throws -> some ApplicationProtocol {
        let verifiers = environments.map { environment in
            SignedDataVerifier(
                configuration: VerifierConfiguration(bundleID: bundleID, environment: environment, appAppleID: 1234, rootCertificates: [pki.root] + roots),
                now: clock.reading)
        }
        var configuration = ServerConfiguration(
            // The test client keeps one connection from the start: a test that spends a minute appending to
            // the store directly (two loaded cores) must find it open, not closed as idle.
            http: HTTPConfiguration(host: "127.0.0.1", port: 0, maximumBodySize: 256 * 1024, idleTimeout: .seconds(600)), ledger: .store(store),
            catalog: catalog ?? Fixtures.exampleCatalog(example), verifiers: verifiers, keys: keys, restorePolicy: restorePolicy,
            analyticsRefreshInterval: nil, now: clock.reading, logger: Logger(label: "entitle.tests.server"), signer: signer)
        // Tests publish and send webhooks by hand, at their clock's instants (``service()``).
        configuration.webhookInterval = nil
        configuration.passwordCost = .testing
        return try await buildApplication(configuration: configuration)
    }

    /// A server configuration that opens `database` itself, as `entitle serve` does (migrated, and on
    /// PostgreSQL the event loops' read connections opened, before it listens), serving the example
    /// app with no verifier and no background work.
    static func configuration(opening database: LedgerDatabase) throws -> ServerConfiguration {
        let keys = try APIKeys(secretKeys: [Self.secretKey], publicKeySecret: "public-key-secret-for-tests")
        var configuration = ServerConfiguration(
            http: HTTPConfiguration(host: "127.0.0.1", port: 0), ledger: .database(database),
            catalog: Fixtures.exampleCatalog("ScreenTimeRewards"), verifiers: [], keys: keys, analyticsRefreshInterval: nil,
            now: TestClock().reading, logger: Logger(label: "entitle.tests.server"))
        configuration.webhookInterval = nil
        configuration.passwordCost = .testing
        return configuration
    }

    /// An app's services over the harness's ledger, as another instance of the server would run
    /// it: for driving background work (webhooks) by hand, its webhook leases lasting `webhookLease`.
    func service(webhookLease: TimeInterval = WebhookService.defaultLease) -> AppServices {
        let verifier = SignedDataVerifier(
            configuration: VerifierConfiguration(
                bundleID: bundleID, environment: .sandbox, appAppleID: 1234, rootCertificates: [pki.root, authority.root]),
            now: clock.reading)
        return AppServices(
            store: store, catalog: catalog, verifiers: [verifier], now: clock.reading, logger: Logger(label: "entitle.tests.service"),
            webhookLease: webhookLease)
    }

    // MARK: Signed inputs

    /// The local App Store selling this server's catalog, signing with its own authority.
    func localStore(timeScale: TimeScale = .real, billingGracePeriod: ISODuration? = ISODuration(days: 16)) -> StoreSimulator {
        StoreSimulator(
            catalog: catalog, bundleID: bundleID, environment: .sandbox, appAppleID: 1234, signer: authority.signer, timeScale: timeScale,
            billingGracePeriod: billingGracePeriod)
    }

    /// Buys `productID` in the local store as `appUserID`: the app submits the signed transaction, then
    /// the store's notifications arrive.
    @discardableResult
    func buy(
        _ client: any TestClientProtocol, _ store: inout StoreSimulator, _ productID: String, as appUserID: String, at date: Date,
        introductoryOffer: Bool = false
    ) async throws -> StorePurchase {
        let purchase = try store.purchase(productID, appAccountToken: UUID(), at: date, introductoryOffer: introductoryOffer)
        try await submit(client, appUserID, signed: purchase.signedTransaction)
        try await deliver(client, purchase.notifications)
        return purchase
    }

    /// Delivers the store's notifications to the webhook, each acknowledged with 200.
    func deliver(_ client: any TestClientProtocol, _ notifications: [SignedNotification]) async throws {
        for notification in notifications { try await postNotification(client, notification.signedPayload) }
    }

    func notification(
        _ type: NotificationTypeV2, subtype: Subtype? = nil, uuid: String = UUID().uuidString,
        transaction: JWSTransactionDecodedPayload?, renewal: JWSRenewalInfoDecodedPayload? = nil, bundleID: String? = nil
    ) -> String {
        let payload = ResponseBodyV2DecodedPayload(
            notificationType: type, subtype: subtype, notificationUUID: uuid,
            data: NotificationData(
                environment: .sandbox, appAppleId: 1234, bundleId: bundleID ?? self.bundleID,
                signedTransactionInfo: transaction.map { pki.sign($0) }, signedRenewalInfo: renewal.map { pki.sign($0) }),
            version: "2.0", signedDate: [transaction?.signedDate, renewal?.signedDate].compactMap { $0 }.max() ?? clock.now)
        return pki.sign(payload)
    }

    // MARK: Requests

    func publicKey(_ appUserID: String) -> String { keys.publicKey(for: AppUserID(appUserID))! }

    static func json<T: Encodable>(_ value: T) -> ByteBuffer {
        ByteBuffer(bytes: try! WireJSON.encoder.encode(value))
    }

    @discardableResult
    func delete(_ client: any TestClientProtocol, _ uri: String, key: String?, expect status: HTTPResponse.Status = .ok) async throws -> TestResponse {
        var headers = HTTPFields()
        if let key { headers[.authorization] = "Bearer \(key)" }
        let response = try await client.execute(uri: uri, method: .delete, headers: headers, body: nil)
        #expect(response.status == status, "DELETE \(uri): \(String(buffer: response.body))")
        return response
    }

    @discardableResult
    func post(_ client: any TestClientProtocol, _ uri: String, key: String? = nil, body: ByteBuffer, expect status: HTTPResponse.Status = .ok) async throws -> TestResponse {
        try await send(client, .post, uri, key: key, body: body, expect: status)
    }

    @discardableResult
    func patch(_ client: any TestClientProtocol, _ uri: String, key: String? = nil, body: ByteBuffer, expect status: HTTPResponse.Status = .ok) async throws -> TestResponse {
        try await send(client, .patch, uri, key: key, body: body, expect: status)
    }

    private func send(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, key: String?, body: ByteBuffer, expect status: HTTPResponse.Status
    ) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        if let key { headers[.authorization] = "Bearer \(key)" }
        let response = try await client.execute(uri: uri, method: method, headers: headers, body: body)
        #expect(response.status == status, "\(method) \(uri): \(String(buffer: response.body))")
        return response
    }

    @discardableResult
    func get(_ client: any TestClientProtocol, _ uri: String, key: String?, expect status: HTTPResponse.Status = .ok) async throws -> TestResponse {
        var headers = HTTPFields()
        if let key { headers[.authorization] = "Bearer \(key)" }
        let response = try await client.execute(uri: uri, method: .get, headers: headers)
        #expect(response.status == status, "GET \(uri): \(String(buffer: response.body))")
        return response
    }

    @discardableResult
    func postNotification(_ client: any TestClientProtocol, _ signedPayload: String, expect status: HTTPResponse.Status = .ok) async throws -> TestResponse {
        try await post(client, "/v1/app-store/notifications", body: Self.json(AppStoreNotificationRequest(signedPayload: signedPayload)), expect: status)
    }

    func subscriber(_ client: any TestClientProtocol, _ appUserID: String) async throws -> SubscriberResponse {
        let response = try await get(client, "/v1/subscribers/\(appUserID)", key: publicKey(appUserID))
        return try Self.decode(SubscriberResponse.self, response)
    }

    @discardableResult
    func submit(_ client: any TestClientProtocol, _ appUserID: String, _ transaction: JWSTransactionDecodedPayload, expect status: HTTPResponse.Status = .ok) async throws -> TestResponse {
        try await post(client, "/v1/subscribers/\(appUserID)/transactions", key: publicKey(appUserID),
                       body: Self.json(SubmitTransactionRequest(signedTransaction: pki.sign(transaction))), expect: status)
    }

    /// Submits a transaction as the app would: its StoreKit `jwsRepresentation`.
    @discardableResult
    func submit(_ client: any TestClientProtocol, _ appUserID: String, signed: String, expect status: HTTPResponse.Status = .ok) async throws -> TestResponse {
        try await post(client, "/v1/subscribers/\(appUserID)/transactions", key: publicKey(appUserID),
                       body: Self.json(SubmitTransactionRequest(signedTransaction: signed)), expect: status)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        try WireJSON.decoder.decode(type, from: Data(buffer: response.body))
    }

    static func errorCode(_ response: TestResponse) -> String? {
        try? decode(ErrorResponse.self, response).error.code
    }
}
