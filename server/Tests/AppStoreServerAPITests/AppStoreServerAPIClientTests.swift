import AppStoreModels
import AppStoreServerAPI
import AppStoreVerification
import Crypto
import EntitleAPI
import EntitleTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocalAppStore
import Testing

/// The client against the local stand-in over loopback HTTP: production answers 404 for the app (not
/// released yet) under `/prod`, the stand-in answers under `/sandbox`.
@Suite("AppStoreServerAPIClient")
struct AppStoreServerAPIClientTests {
    /// What the stand-in sent to the app's server.
    final class Sent: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func append(_ item: String) { lock.withLock { items.append(item) } }
        var all: [String] { lock.withLock { items } }
    }

    struct Setup: Sendable {
        let pki: TestPKI
        let apple = AppleFacts()
        let api: LocalServerAPI
        let key: P256.Signing.PrivateKey
        let base: URL
        /// The store's own authority (test notifications, extended transactions).
        let authority: LocalCertificateAuthority
        let sent: Sent

        func client(
            now: @escaping @Sendable () -> Date = { Date() }, key override: P256.Signing.PrivateKey? = nil, retries: Int = 2, pacer: RequestPacer = RequestPacer()
        ) -> AppStoreServerAPIClient {
            let token = APIToken(key: override ?? key, keyID: "KEY123", issuerID: "issuer-1", bundleID: "com.example")
            let verifier = SignedDataVerifier(
                configuration: VerifierConfiguration(
                    bundleID: "com.example", environment: .sandbox, rootCertificates: [pki.root, authority.root]), now: { Date() })
            return AppStoreServerAPIClient(
                token: token,
                endpoints: .init(production: base.appendingPathComponent("prod"), sandbox: base.appendingPathComponent("sandbox")),
                verifiers: [verifier], retries: retries, retryDelay: .milliseconds(5), pacer: pacer, now: now)
        }

        func record(_ transaction: JWSTransactionDecodedPayload, signer: TestPKI? = nil) {
            api.record(transaction: (signer ?? pki).sign(transaction), transaction)
        }
    }

    static func run(_ body: @Sendable (Setup) async throws -> Void) async throws {
        let key = P256.Signing.PrivateKey()
        let authority = try LocalCertificateAuthority.create(now: Date().addingTimeInterval(-86_400))
        let sent = Sent()
        let api = LocalServerAPI(
            credentials: .init(keyID: "KEY123", issuerID: "issuer-1", bundleID: "com.example", publicKey: key.publicKey),
            store: .init(signer: authority.signer, deliver: { signed in
                sent.append(signed)
                return true
            }), now: { Date() })
        let router = Router()
        for method in [HTTPRequest.Method.get, .post, .put] {
            router.on("/prod/**", method: method) { _, _ in
                Response(status: .notFound, headers: [.contentType: "application/json"],
                         body: .init(byteBuffer: ByteBuffer(string: #"{"errorCode":4040003,"errorMessage":"App not found."}"#)))
            }
            router.on("/sandbox/**", method: method) { request, _ in
                let body = try await request.body.collect(upTo: 1 << 20)
                var query: [String: String] = [:]
                for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
                let answer = await api.handle(
                    method: request.method.rawValue, path: String(request.uri.path.dropFirst("/sandbox".count)), query: query,
                    authorization: request.headers[.authorization], body: body.readableBytes > 0 ? Data(body.readableBytesView) : nil)
                var headers = HTTPFields()
                for (name, value) in answer.headers { headers[HTTPField.Name(name)!] = value }
                return Response(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
            }
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await body(Setup(
                pki: try TestPKI(), api: api, key: key, base: try #require(URL(string: "http://127.0.0.1:\(port)")), authority: authority, sent: sent))
        }
    }

    static func subscription(_ setup: Setup, original: String, id: String, day: Double) -> JWSTransactionDecodedPayload {
        // Whole seconds: signed dates travel in milliseconds.
        setup.apple.subscription(
            "com.example.monthly", original: original, id: id, purchase: ReferenceTime.day(day),
            expires: Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 86_400).rounded(.down)))
    }

    @Test("Get Transaction Info, through the sandbox fallback; an unknown ID is Apple's 4040010")
    func transactionInfo() async throws {
        try await Self.run { (setup: Setup) async throws in
            let transaction = Self.subscription(setup, original: "100", id: "100", day: 0)
            setup.record(transaction)
            #expect(try await setup.client().transaction("100") == transaction)
            let error = await #expect(throws: AppStoreServerAPIError.self) { try await setup.client().transaction("999") }
            #expect(error?.kind == .apple && error?.code == AppStoreServerAPIError.transactionIdNotFound && error?.isRetryable == false)
        }
    }

    @Test("Get Transaction History pages by revision to every transaction of the chain, in order")
    func historyPaging() async throws {
        try await Self.run { (setup: Setup) async throws in
            let chain = (0..<5).map { Self.subscription(setup, original: "200", id: "20\($0)", day: Double($0) * 30) }
            for transaction in chain { setup.record(transaction) }
            let first = try await setup.client().transactionHistory("203")
            #expect(first.transactions.count == 2 && first.hasMore)
            #expect(try await setup.client().allTransactionHistory("203").map(\.transactionId) == chain.map(\.transactionId))
        }
    }

    @Test("Get All Subscription Statuses: the status with the latest transaction and renewal info, verified")
    func statuses() async throws {
        try await Self.run { (setup: Setup) async throws in
            let transaction = Self.subscription(setup, original: "300", id: "300", day: 0)
            setup.record(transaction)
            let renewal = setup.apple.renewal(original: "300", product: "com.example.monthly", signed: ReferenceTime.day(1))
            setup.api.record(renewalInfo: setup.pki.sign(renewal), originalTransactionID: "300")
            let statuses = try await setup.client().subscriptionStatuses("300")
            #expect(statuses.count == 1)
            #expect(statuses.first?.status == 1)
            #expect(statuses.first?.transaction == transaction)
            #expect(statuses.first?.renewalInfo == renewal)
        }
    }

    @Test("Get Notification History pages through the window's notifications, each verified; one that does not verify is left out and counted")
    func notificationHistory() async throws {
        try await Self.run { (setup: Setup) async throws in
            let now = Date()
            let offsets: [TimeInterval] = [-3600, -1800, -60, -86_400 * 3]
            for (index, offset) in offsets.enumerated() {
                let payload = ResponseBodyV2DecodedPayload(
                    notificationType: .didRenew, notificationUUID: "n\(index)",
                    data: NotificationData(environment: .sandbox, bundleId: "com.example",
                                           signedTransactionInfo: setup.pki.sign(Self.subscription(setup, original: "40\(index)", id: "40\(index)", day: 0))),
                    version: "2.0", signedDate: now.addingTimeInterval(offset))
                setup.api.record(notification: setup.pki.sign(payload), at: now.addingTimeInterval(offset))
            }
            // One in the window signed by someone else: left out and counted, the rest still returned.
            let forged = ResponseBodyV2DecodedPayload(
                notificationType: .didRenew, notificationUUID: "forged", data: NotificationData(environment: .sandbox, bundleId: "com.example"),
                version: "2.0", signedDate: now.addingTimeInterval(-120))
            setup.api.record(notification: try TestPKI().sign(forged), at: now.addingTimeInterval(-120))
            let request = NotificationHistoryRequest(startDate: now.addingTimeInterval(-86_400), endDate: now)
            let first = try await setup.client().notificationHistory(request)
            #expect(first.notifications.count == 2 && first.refused == 0 && first.next != nil)
            let second = try await setup.client().notificationHistory(request, paginationToken: first.next)
            #expect(second.notifications.count == 1 && second.refused == 1 && second.next == nil)
            let uuids = (first.notifications + second.notifications).compactMap(\.verified.notification.notificationUUID)
            #expect(uuids == ["n0", "n1", "n2"])
        }
    }

    @Test("429 waits its Retry-After and 5xx backs off, then succeeds; when the retries run out it is a retryable error")
    func retries() async throws {
        try await Self.run { (setup: Setup) async throws in
            setup.record(Self.subscription(setup, original: "500", id: "500", day: 0))
            setup.api.failNext(status: 429, retryAt: Date(), errorCode: AppStoreServerAPIError.rateLimitExceeded)
            setup.api.failNext(status: 503)
            #expect(try await setup.client().transaction("500").transactionId == "500")
            for _ in 0..<3 { setup.api.failNext(status: 429, retryAt: Date(), errorCode: AppStoreServerAPIError.rateLimitExceeded) }
            let error = await #expect(throws: AppStoreServerAPIError.self) { try await setup.client(retries: 2).transaction("500") }
            #expect(error?.kind == .rateLimited && error?.isRetryable == true)
        }
    }

    @Test("a Retry-After past the longest wait fails the call at once, and every client sharing its pacer, without asking Apple")
    func farRetryAfter() async throws {
        try await Self.run { (setup: Setup) async throws in
            setup.record(Self.subscription(setup, original: "510", id: "510", day: 0))
            let pacer = RequestPacer()
            setup.api.failNext(status: 429, retryAt: Date().addingTimeInterval(3_600), errorCode: AppStoreServerAPIError.rateLimitExceeded)
            // Retries are left, and Apple would answer the next request: the client did not wait for it.
            let first = await #expect(throws: AppStoreServerAPIError.self) { try await setup.client(retries: 3, pacer: pacer).transaction("510") }
            #expect(first?.kind == .rateLimited)
            let held = await #expect(throws: AppStoreServerAPIError.self) { try await setup.client(pacer: pacer).transaction("510") }
            #expect(held?.kind == .rateLimited && held?.message.contains("transactionInfo") == true)
            // Another endpoint, and a client with a pacer of its own, still reach Apple.
            #expect(try await setup.client(pacer: pacer).subscriptionStatuses("510").count == 1)
            #expect(try await setup.client().transaction("510").transactionId == "510")
        }
    }

    static let retryAfterCases: [(header: String?, seconds: Double?)] = [
        ("1764428401000", 1), ("1764428400000", 0), ("1764428390000", 0), (" 1764428402500 ", 2.5), ("9223372036854775807", 86_400),
        ("2", 2), ("0", 0), ("86401", 86_400), (nil, nil), ("", nil), ("-5", nil), ("1.5", nil), ("inf", nil), ("nan", nil), ("1e300", nil),
        ("99999999999999999999", nil), ("Wed, 21 Oct 2015 07:28:00 GMT", nil), ("+3", 3),
    ]

    /// Apple's `Retry-After` is a UNIX time in milliseconds; HTTP's delay in seconds is read too. No value traps.
    @Test("Retry-After is read as Apple writes it, bounded to a day, and anything else is the client's own back-off", arguments: retryAfterCases)
    func retryAfterValues(header: String?, seconds: Double?) {
        let wait = AppStoreServerAPIClient.retryWait(header, now: Date(timeIntervalSince1970: 1_764_428_400))
        #expect(wait == seconds.map { .milliseconds(Int64($0 * 1000)) })
    }

    @Test("a token that expired, or one signed with another key, is refused with 401 as Apple refuses it")
    func tokens() async throws {
        try await Self.run { (setup: Setup) async throws in
            setup.record(Self.subscription(setup, original: "600", id: "600", day: 0))
            let stale = await #expect(throws: AppStoreServerAPIError.self) {
                try await setup.client(now: { Date().addingTimeInterval(-2 * 3600) }).transaction("600")
            }
            #expect(stale?.kind == .unauthorized)
            let forged = await #expect(throws: AppStoreServerAPIError.self) { try await setup.client(key: P256.Signing.PrivateKey()).transaction("600") }
            #expect(forged?.kind == .unauthorized)
            // One token is reused until near its expiry.
            let token = APIToken(key: setup.key, keyID: "KEY123", issuerID: "issuer-1", bundleID: "com.example")
            let at = Date()
            let first = try token.token(at: at)
            let reused = try token.token(at: at.addingTimeInterval(600))
            let renewed = try token.token(at: at.addingTimeInterval(APIToken.lifetime - 30))
            #expect(first == reused && first != renewed)
        }
    }

    @Test("a response whose signed data Apple didn't sign is refused")
    func forgedResponse() async throws {
        try await Self.run { (setup: Setup) async throws in
            setup.record(Self.subscription(setup, original: "700", id: "700", day: 0), signer: try TestPKI())
            let error = await #expect(throws: AppStoreServerAPIError.self) { try await setup.client().transaction("700") }
            #expect(error?.kind == .verification)
        }
    }

    @Test("Get Refund History pages through the chain's refunded transactions, each verified")
    func refundHistory() async throws {
        try await Self.run { (setup: Setup) async throws in
            for index in 0..<4 {
                var transaction = Self.subscription(setup, original: "810", id: "81\(index)", day: Double(index) * 30)
                if index > 0 { transaction.revocationDate = ReferenceTime.day(Double(index) * 30 + 1) }
                setup.record(transaction)
            }
            let first = try await setup.client().refundHistory("810")
            #expect(first.transactions.count == 2 && first.hasMore)
            let second = try await setup.client().refundHistory("810", revision: first.revision)
            #expect(second.transactions.count == 1 && !second.hasMore)
            #expect((first.transactions + second.transactions).map(\.transactionId) == ["811", "812", "813"])
        }
    }

    @Test("Look Up Order ID: the order's transactions, verified; an order ID Apple doesn't know is nil")
    func orderLookup() async throws {
        try await Self.run { (setup: Setup) async throws in
            let transaction = Self.subscription(setup, original: "820", id: "820", day: 0)
            setup.record(transaction)
            let order = LocalServerAPI.orderID(transactionID: "820")
            #expect(try await setup.client().lookUpOrder(order)?.map(\.transactionId) == ["820"])
            #expect(try await setup.client().lookUpOrder("MNOTANORDER") == nil)
        }
    }

    @Test("Request a Test Notification: Apple sends a TEST notification; its status has the notification, verified, and the attempt")
    func testNotification() async throws {
        try await Self.run { (setup: Setup) async throws in
            let token = try await setup.client().requestTestNotification()
            #expect(setup.sent.all.count == 1)
            let status = try await setup.client().testNotificationStatus(token)
            #expect(status.notification?.notification.notificationType == .test)
            #expect(status.attempts.map(\.sendAttemptResult) == ["SUCCESS"])
            let unknown = await #expect(throws: AppStoreServerAPIError.self) { try await setup.client().testNotificationStatus("no-such-token") }
            #expect(unknown?.code == 4040008)
        }
    }

    @Test("Extend a Subscription Renewal Date: the new expiry, re-signed and notified; out of Apple's bounds refused before sending; an expired one ineligible")
    func extendRenewalDate() async throws {
        try await Self.run { (setup: Setup) async throws in
            let transaction = Self.subscription(setup, original: "830", id: "830", day: 0)
            setup.record(transaction)
            let answer = try await setup.client().extendRenewalDate(
                "830", ExtendRenewalDateRequest(extendByDays: 7, extendReasonCode: 3, requestIdentifier: "outage-2026-11"))
            let expected = try #require(transaction.expiresDate).addingTimeInterval(7 * 86_400)
            #expect(answer.success == true)
            #expect(answer.effectiveDate == Int64(expected.timeIntervalSince1970 * 1000))
            #expect(try await setup.client().transaction("830").expiresDate == expected)
            #expect(setup.sent.all.count == 1)
            let tooLong = await #expect(throws: AppStoreServerAPIError.self) {
                try await setup.client().extendRenewalDate("830", ExtendRenewalDateRequest(extendByDays: 91, extendReasonCode: 1, requestIdentifier: "x"))
            }
            #expect(tooLong?.kind == .invalidRequest && setup.sent.all.count == 1)
            var expired = Self.subscription(setup, original: "831", id: "831", day: 0)
            expired.expiresDate = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 86_400).rounded(.down))
            setup.record(expired)
            let ineligible = await #expect(throws: AppStoreServerAPIError.self) {
                try await setup.client().extendRenewalDate("831", ExtendRenewalDateRequest(extendByDays: 1, extendReasonCode: 1, requestIdentifier: "y"))
            }
            #expect(ineligible?.code == 4030004)
        }
    }

    @Test("Extend for all active subscribers of a product, and its status: complete, with how many were extended")
    func massExtension() async throws {
        try await Self.run { (setup: Setup) async throws in
            for original in ["840", "841"] { setup.record(Self.subscription(setup, original: original, id: original, day: 0)) }
            let id = try await setup.client().massExtendRenewalDate(
                MassExtendRenewalDateRequest(extendByDays: 3, extendReasonCode: 1, requestIdentifier: "goodwill-1", productId: "com.example.monthly"))
            let status = try await setup.client().massExtensionStatus(productID: "com.example.monthly", requestIdentifier: id)
            #expect(status.complete == true && status.succeededCount == 2 && status.failedCount == 0)
        }
    }

    @Test("Send Consumption Information is accepted (202) as sent; without the customer's consent Apple refuses it")
    func consumption() async throws {
        try await Self.run { (setup: Setup) async throws in
            setup.record(Self.subscription(setup, original: "850", id: "850", day: 0))
            try await setup.client().sendConsumptionInformation(
                "850", ConsumptionRequest(consumptionPercentage: 25_000, deliveryStatus: .delivered, sampleContentProvided: true, refundPreference: .decline))
            let report = setup.api.consumptionReport(transactionID: "850")
            #expect(report?.consumptionPercentage == 25_000 && report?.deliveryStatus == "DELIVERED" && report?.refundPreference == "DECLINE")
            let refused = await #expect(throws: AppStoreServerAPIError.self) {
                try await setup.client().sendConsumptionInformation(
                    "850", ConsumptionRequest(customerConsented: false, deliveryStatus: .delivered, sampleContentProvided: false))
            }
            #expect(refused?.kind == .apple && refused?.status == 400)
        }
    }

    @Test("Set App Account Token on a purchase; an unknown purchase is Apple's 4040005")
    func setAppAccountToken() async throws {
        try await Self.run { (setup: Setup) async throws in
            setup.record(Self.subscription(setup, original: "860", id: "860", day: 0))
            let token = UUID()
            try await setup.client().setAppAccountToken("860", token)
            #expect(setup.api.appAccountToken(originalTransactionID: "860") == token)
            let unknown = await #expect(throws: AppStoreServerAPIError.self) { try await setup.client().setAppAccountToken("869", UUID()) }
            #expect(unknown?.code == AppStoreServerAPIError.originalTransactionIdNotFound)
        }
    }
}
