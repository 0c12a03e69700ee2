import AppStoreModels
import AppStoreVerification
import EntitleAPI
import Foundation
import Instrumentation
import Tracing

/// A client of Apple's App Store Server API for one app: signs each request with the app's in-app
/// purchase key, paces each endpoint within Apple's published rate limits, retries what may succeed
/// later (429 after its Retry-After, 5xx and connection failures with doubling waits), falls back from
/// production to sandbox where the app accepts sandbox data (an app not released yet is unknown to
/// production), and verifies every signed datum Apple returns before handing it over.
public struct AppStoreServerAPIClient: Sendable {
    /// Where the API is, per environment.
    public struct Endpoints: Sendable {
        public var production: URL
        public var sandbox: URL?
        public init(production: URL, sandbox: URL?) {
            self.production = production
            self.sandbox = sandbox
        }
        /// Apple's: production, and sandbox, on the hosts Apple's documentation names since 2026.
        public static let apple = Endpoints(
            production: constant("https://api.storekit.apple.com"), sandbox: constant("https://api.storekit-sandbox.apple.com"))
        /// Apple's earlier hosts, which serve the same API.
        public static let appleLegacy = Endpoints(
            production: constant("https://api.storekit.itunes.apple.com"), sandbox: constant("https://api.storekit-sandbox.itunes.apple.com"))

        /// An address written in this file, valid by construction; never one a caller supplies.
        private static func constant(_ address: String) -> URL {
            guard let url = URL(string: address) else { preconditionFailure("\(address) is not a URL") }
            return url
        }
    }

    let token: APIToken
    let endpoints: Endpoints
    let transport: any HTTPTransport
    /// Verifiers of the environments the app accepts, tried in order.
    let verifiers: [SignedDataVerifier]
    let retries: Int
    let retryDelay: Duration
    /// Apple's clock: tokens' issue times, `Retry-After`'s UNIX times.
    let now: @Sendable () -> Date
    /// Keeps calls within Apple's rate limits; one per app, shared by the copies of its client.
    let pacer: RequestPacer
    /// The clock waits are measured on.
    let wallClock: @Sendable () -> ContinuousClock.Instant
    /// The longest wait (a `Retry-After`, a hold) a call sits through; a longer one fails it as rate limited.
    let maxRetryWait: Duration

    public init(
        token: APIToken, endpoints: Endpoints = .apple, transport: any HTTPTransport = AsyncHTTPClientTransport(), verifiers: [SignedDataVerifier],
        retries: Int = 3, retryDelay: Duration = .seconds(1), pacer: RequestPacer = RequestPacer(), maxRetryWait: Duration = .seconds(60),
        wallClock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }, now: @escaping @Sendable () -> Date
    ) {
        self.token = token
        self.endpoints = endpoints
        self.transport = transport
        self.verifiers = verifiers
        self.retries = retries
        self.retryDelay = retryDelay
        self.pacer = pacer
        self.maxRetryWait = maxRetryWait
        self.wallClock = wallClock
        self.now = now
    }

    // MARK: - Endpoints

    /// Get Transaction Info: the transaction, verified.
    public func transaction(_ transactionID: String) async throws(AppStoreServerAPIError) -> JWSTransactionDecodedPayload {
        try await signedTransaction(transactionID).transaction
    }

    /// Get Transaction Info: the transaction as Apple signed it, and verified.
    public func signedTransaction(
        _ transactionID: String
    ) async throws(AppStoreServerAPIError) -> (signed: String, transaction: JWSTransactionDecodedPayload) {
        let response: TransactionInfoResponse = try await call(.transactionInfo, "GET", "/inApps/v1/transactions/\(Self.segment(transactionID))")
        guard let signed = response.signedTransactionInfo else { throw AppStoreServerAPIError(.unexpectedResponse, "no signedTransactionInfo") }
        return (signed, try await verifyTransaction(signed))
    }

    /// Get App Transaction Info: the customer's app transaction, verified. `anyTransactionID` is any of the
    /// customer's transaction IDs, original transaction IDs or app transaction IDs for the app.
    public func appTransaction(_ anyTransactionID: String) async throws(AppStoreServerAPIError) -> AppTransaction {
        let response: AppTransactionInfoResponse = try await call(.appTransactionInfo, "GET", "/inApps/v1/transactions/appTransactions/\(Self.segment(anyTransactionID))")
        guard let signed = response.signedAppTransactionInfo else { throw AppStoreServerAPIError(.unexpectedResponse, "no signedAppTransactionInfo") }
        return try await verify { verifier throws(VerificationError) in try await verifier.verifyAppTransaction(signed) }
    }

    /// Finish Transaction: tells the App Store the server has delivered what `transactionID` bought (for
    /// apps that deliver from their server instead of calling StoreKit's `finish()`).
    public func finishTransaction(_ transactionID: String) async throws(AppStoreServerAPIError) {
        let _: EmptyResponse = try await call(.finishTransaction, "POST", "/inApps/v1/transactions/\(Self.segment(transactionID))/finish")
    }

    /// One page of Get Transaction History (v2), verified, from `revision` (the first page when `nil`).
    public func transactionHistory(
        _ transactionID: String, revision: String? = nil
    ) async throws(AppStoreServerAPIError) -> (transactions: [JWSTransactionDecodedPayload], revision: String?, hasMore: Bool) {
        let page = try await signedTransactionHistory(transactionID, revision: revision)
        return (page.transactions.map(\.transaction), page.revision, page.hasMore)
    }

    /// One page of Get Transaction History (v2), each transaction as Apple signed it and verified.
    public func signedTransactionHistory(
        _ transactionID: String, revision: String? = nil
    ) async throws(AppStoreServerAPIError) -> (transactions: [(signed: String, transaction: JWSTransactionDecodedPayload)], revision: String?, hasMore: Bool) {
        var path = "/inApps/v2/history/\(Self.segment(transactionID))?sort=ASCENDING"
        if let revision { path += "&revision=\(Self.segment(revision))" }
        let response: HistoryResponse = try await call(.transactionHistory, "GET", path)
        var transactions: [(signed: String, transaction: JWSTransactionDecodedPayload)] = []
        for signed in response.signedTransactions ?? [] { transactions.append((signed, try await verifyTransaction(signed))) }
        return (transactions, response.revision, response.hasMore ?? false)
    }

    /// Every page of the transaction history, verified.
    public func allTransactionHistory(_ transactionID: String) async throws(AppStoreServerAPIError) -> [JWSTransactionDecodedPayload] {
        var all: [JWSTransactionDecodedPayload] = []
        var revision: String?
        repeat {
            let page = try await transactionHistory(transactionID, revision: revision)
            all += page.transactions
            guard page.hasMore, let next = page.revision else { break }
            revision = next
        } while true
        return all
    }

    /// Get All Subscription Statuses: each subscription's status with its latest transaction and renewal
    /// info, verified.
    public func subscriptionStatuses(
        _ transactionID: String
    ) async throws(AppStoreServerAPIError) -> [(status: Int?, transaction: JWSTransactionDecodedPayload?, renewalInfo: JWSRenewalInfoDecodedPayload?)] {
        let response: StatusResponse = try await call(.subscriptionStatuses, "GET", "/inApps/v1/subscriptions/\(Self.segment(transactionID))")
        var statuses: [(status: Int?, transaction: JWSTransactionDecodedPayload?, renewalInfo: JWSRenewalInfoDecodedPayload?)] = []
        for item in (response.data ?? []).flatMap({ $0.lastTransactions ?? [] }) {
            let transaction = try await item.signedTransactionInfo.asyncMap { signed throws(AppStoreServerAPIError) in try await verifyTransaction(signed) }
            let renewal = try await item.signedRenewalInfo.asyncMap { signed throws(AppStoreServerAPIError) in try await verifyRenewal(signed) }
            statuses.append((item.status, transaction, renewal))
        }
        return statuses
    }

    /// One page of Get Notification History, each notification verified; one that doesn't verify is
    /// left out and counted in `refused` (a bad item doesn't hide the rest of the history).
    public func notificationHistory(
        _ request: NotificationHistoryRequest, paginationToken: String? = nil
    ) async throws(AppStoreServerAPIError) -> (notifications: [(signedPayload: String, verified: VerifiedNotification)], refused: Int, next: String?) {
        let body: Data
        do {
            body = try JSONEncoder().encode(request)
        } catch {
            throw AppStoreServerAPIError(.unexpectedResponse, "the request does not encode: \(error)")
        }
        let path = "/inApps/v1/notifications/history" + (paginationToken.map { "?paginationToken=\(Self.segment($0))" } ?? "")
        let response: NotificationHistoryResponse = try await call(.notificationHistory, "POST", path, body: body)
        var notifications: [(signedPayload: String, verified: VerifiedNotification)] = []
        var refused = 0
        for item in response.notificationHistory ?? [] {
            guard let signed = item.signedPayload else { continue }
            do {
                notifications.append((signed, try await verify { verifier throws(VerificationError) in try await verifier.verifyNotification(signed) }))
            } catch {
                refused += 1
            }
        }
        return (notifications, refused, (response.hasMore ?? false) ? response.paginationToken : nil)
    }

    /// One page of Get Refund History (v2): the customer's refunded transactions, verified.
    public func refundHistory(
        _ transactionID: String, revision: String? = nil
    ) async throws(AppStoreServerAPIError) -> (transactions: [JWSTransactionDecodedPayload], revision: String?, hasMore: Bool) {
        var path = "/inApps/v2/refund/lookup/\(Self.segment(transactionID))"
        if let revision { path += "?revision=\(Self.segment(revision))" }
        let response: RefundHistoryResponse = try await call(.refundHistory, "GET", path)
        var transactions: [JWSTransactionDecodedPayload] = []
        for signed in response.signedTransactions ?? [] { transactions.append(try await verifyTransaction(signed)) }
        return (transactions, response.revision, response.hasMore ?? false)
    }

    /// Look Up Order ID (from the customer's receipt email): the order's transactions, verified; `nil`
    /// when Apple says the order ID is not valid.
    public func lookUpOrder(_ orderID: String) async throws(AppStoreServerAPIError) -> [JWSTransactionDecodedPayload]? {
        let response: OrderLookupResponse = try await call(.lookUpOrderID, "GET", "/inApps/v1/lookup/\(Self.segment(orderID))")
        guard response.status == 0 else { return nil }
        var transactions: [JWSTransactionDecodedPayload] = []
        for signed in response.signedTransactions ?? [] { transactions.append(try await verifyTransaction(signed)) }
        return transactions
    }

    /// Request a Test Notification: Apple sends a TEST notification to the app's URL; the token asks for its status.
    public func requestTestNotification() async throws(AppStoreServerAPIError) -> String {
        let response: TestNotificationResponse = try await call(.testNotification, "POST", "/inApps/v1/notifications/test")
        guard let token = response.testNotificationToken else { throw AppStoreServerAPIError(.unexpectedResponse, "no testNotificationToken") }
        return token
    }

    /// Get Test Notification Status: the test notification, verified, and each attempt to send it.
    public func testNotificationStatus(
        _ token: String
    ) async throws(AppStoreServerAPIError) -> (notification: VerifiedNotification?, attempts: [TestNotificationStatusResponse.SendAttempt]) {
        let response: TestNotificationStatusResponse = try await call(.testNotificationStatus, "GET", "/inApps/v1/notifications/test/\(Self.segment(token))")
        let notification = try await response.signedPayload.asyncMap { signed throws(AppStoreServerAPIError) in
            try await verify { verifier throws(VerificationError) in try await verifier.verifyNotification(signed) }
        }
        return (notification, response.sendAttempts ?? [])
    }

    /// Extend a Subscription Renewal Date (refused locally, before Apple, outside Apple's bounds).
    public func extendRenewalDate(
        _ originalTransactionID: String, _ request: ExtendRenewalDateRequest
    ) async throws(AppStoreServerAPIError) -> ExtendRenewalDateResponse {
        guard request.isValid else {
            throw AppStoreServerAPIError(.invalidRequest, "an extension is 1 to 90 days with a reason code 0 to 3 and a request identifier")
        }
        return try await call(.extendRenewalDate, "PUT", "/inApps/v1/subscriptions/extend/\(Self.segment(originalTransactionID))", body: try Self.encode(request))
    }

    /// Extend Subscription Renewal Dates for All Active Subscribers of a product; returns the request identifier.
    public func massExtendRenewalDate(_ request: MassExtendRenewalDateRequest) async throws(AppStoreServerAPIError) -> String {
        guard ExtendRenewalDateRequest(extendByDays: request.extendByDays, extendReasonCode: request.extendReasonCode, requestIdentifier: request.requestIdentifier).isValid
        else {
            throw AppStoreServerAPIError(.invalidRequest, "an extension is 1 to 90 days with a reason code 0 to 3 and a request identifier")
        }
        let response: MassExtendRenewalDateResponse = try await call(.massExtendRenewalDate, "POST", "/inApps/v1/subscriptions/extend/mass", body: try Self.encode(request))
        return response.requestIdentifier ?? request.requestIdentifier
    }

    /// Get Status of Subscription Renewal Date Extensions.
    public func massExtensionStatus(
        productID: String, requestIdentifier: String
    ) async throws(AppStoreServerAPIError) -> MassExtendRenewalDateStatusResponse {
        try await call(.massExtensionStatus, "GET", "/inApps/v1/subscriptions/extend/mass/\(Self.segment(productID))/\(Self.segment(requestIdentifier))")
    }

    /// Send Consumption Information (after a CONSUMPTION_REQUEST) for `transactionID`.
    public func sendConsumptionInformation(_ transactionID: String, _ request: ConsumptionRequest) async throws(AppStoreServerAPIError) {
        let _: EmptyResponse = try await call(.consumptionInformation, "PUT", "/inApps/v2/transactions/consumption/\(Self.segment(transactionID))", body: try Self.encode(request))
    }

    /// Set App Account Token on a purchase (one made outside the app, or to change it).
    public func setAppAccountToken(_ originalTransactionID: String, _ token: UUID) async throws(AppStoreServerAPIError) {
        let _: EmptyResponse = try await call(
            .setAppAccountToken, "PUT", "/inApps/v1/transactions/\(Self.segment(originalTransactionID))/appAccountToken",
            body: try Self.encode(UpdateAppAccountTokenRequest(appAccountToken: token)))
    }

    private static func encode<T: Encodable>(_ value: T) throws(AppStoreServerAPIError) -> Data {
        do {
            return try JSONEncoder().encode(value)
        } catch {
            throw AppStoreServerAPIError(.invalidRequest, "the request does not encode: \(error)")
        }
    }

    // MARK: - Transport

    /// One call: production first, sandbox when production doesn't know the app (401/404 for an app not
    /// yet released) and the app accepts sandbox data.
    private func call<T: Decodable>(_ endpoint: APIEndpoint, _ method: String, _ path: String, body: Data? = nil) async throws(AppStoreServerAPIError) -> T {
        // A span while tracing (docs/operations.md, "Traces"): the endpoint, never the path's IDs or the token.
        let span = InstrumentationSystem.tracer is NoOpTracer ? nil : startSpan("App Store Server API \(endpoint.rawValue)", ofKind: .client)
        defer { span?.end() }
        span?.attributes["http.request.method"] = method
        do {
            return try await callEitherEnvironment(endpoint, method, path, body: body)
        } catch {
            span?.attributes["error.type"] = error.kind.rawValue
            span?.attributes["http.response.status_code"] = error.status
            span?.setStatus(SpanStatus(code: .error, message: error.kind.rawValue))
            throw error
        }
    }

    private func callEitherEnvironment<T: Decodable>(
        _ endpoint: APIEndpoint, _ method: String, _ path: String, body: Data?
    ) async throws(AppStoreServerAPIError) -> T {
        do {
            return try await call(endpoint, method, path, body: body, on: endpoints.production, sandbox: false)
        } catch {
            guard error.status == 401 || error.status == 404, acceptsSandbox, let sandbox = endpoints.sandbox else { throw error }
            return try await call(endpoint, method, path, body: body, on: sandbox, sandbox: true)
        }
    }

    private var acceptsSandbox: Bool { verifiers.contains { $0.configuration.environment == .sandbox } }

    private func call<T: Decodable>(
        _ endpoint: APIEndpoint, _ method: String, _ path: String, body: Data?, on base: URL, sandbox: Bool
    ) async throws(AppStoreServerAPIError) -> T {
        var delay = retryDelay
        var attempt = 0
        while true {
            // The endpoint's next slot within Apple's rate limit, or the end of a hold a 429 set.
            let slot = pacer.reserve(endpoint, sandbox: sandbox, now: wallClock())
            guard slot <= maxRetryWait else {
                throw AppStoreServerAPIError(
                    .rateLimited, code: AppStoreServerAPIError.rateLimitExceeded, status: 429,
                    "\(method) \(path): Apple asked to wait \(slot.components.seconds) s more before calling \(endpoint.rawValue) again")
            }
            if slot > .zero { try? await Task.sleep(for: slot) }
            let bearer: String
            do {
                bearer = try token.token(at: now())
            } catch {
                throw AppStoreServerAPIError(.unauthorized, "the token can't be signed: \(error)")
            }
            var headers = ["Authorization": "Bearer \(bearer)", "Accept": "application/json"]
            if body != nil { headers["Content-Type"] = "application/json" }
            let response: APIResponse
            do {
                response = try await transport.send(APIRequest(method: method, path: path, headers: headers, body: body), to: base, timeout: .seconds(30))
            } catch {
                // A cancelled call (graceful shutdown) is not tried again.
                guard attempt < retries, !Task.isCancelled else { throw AppStoreServerAPIError(.unavailable, "\(method) \(path): \(error.message)") }
                try? await Task.sleep(for: delay * Double.random(in: 0.5...1.5))
                (attempt, delay) = (attempt + 1, delay * 2)
                continue
            }
            switch response.status {
            case 200..<300:
                if let empty = EmptyResponse() as? T { return empty }
                do {
                    return try JSONDecoder().decode(T.self, from: response.body)
                } catch {
                    throw AppStoreServerAPIError(.unexpectedResponse, status: response.status, "\(method) \(path) answered a body that is not a \(T.self)")
                }
            case 429:
                // Every call to the endpoint waits: the hold is the pacer's, shared by this app's callers.
                // A wait past `maxRetryWait` fails them at once, without asking Apple, until it ends.
                let wait = Self.retryWait(response.headers["retry-after"], now: now()) ?? delay
                pacer.hold(endpoint, sandbox: sandbox, until: wallClock() + wait)
                guard attempt < retries, wait <= maxRetryWait else {
                    throw AppStoreServerAPIError(.rateLimited, code: AppStoreServerAPIError.rateLimitExceeded, status: 429, "\(method) \(path): rate limited")
                }
                (attempt, delay) = (attempt + 1, delay * 2)
            case 500..<600:
                guard attempt < retries else { throw AppStoreServerAPIError(.unavailable, status: response.status, "\(method) \(path) answered \(response.status)") }
                try? await Task.sleep(for: delay * Double.random(in: 0.5...1.5))
                (attempt, delay) = (attempt + 1, delay * 2)
            case 401:
                throw AppStoreServerAPIError(.unauthorized, status: 401, "Apple refused the token for \(method) \(path)")
            default:
                let payload = try? JSONDecoder().decode(ErrorPayload.self, from: response.body)
                throw AppStoreServerAPIError(
                    .apple, code: payload?.errorCode, status: response.status,
                    payload?.errorMessage ?? "\(method) \(path) answered \(response.status)")
            }
        }
    }

    /// How long a 429's `Retry-After` asks to wait from `now`. Apple's is the UNIX time in milliseconds
    /// when the next request may be sent; a small number is read as HTTP's delay in seconds. Anything
    /// else (a date, a fraction, a sign, digits past Int64) is `nil`: the client's own back-off applies.
    /// Never negative; never past a day, so a far value can't overflow the arithmetic after it.
    public static func retryWait(_ header: String?, now: Date) -> Duration? {
        guard let header, let value = Int64(header.trimmingCharacters(in: .whitespaces)), value >= 0 else { return nil }
        let day: Int64 = 86_400
        // Past 10^11: milliseconds since 1970 (after March 1973), not seconds (more than 3,000 years).
        let seconds = value >= 100_000_000_000 ? Double(value) / 1000 - now.timeIntervalSince1970 : Double(value)
        return .milliseconds(Int64(max(0, min(seconds, Double(day))) * 1000))
    }

    // MARK: - Verification

    private func verifyTransaction(_ signed: String) async throws(AppStoreServerAPIError) -> JWSTransactionDecodedPayload {
        try await verify { verifier throws(VerificationError) in try await verifier.verifyTransaction(signed) }
    }

    private func verifyRenewal(_ signed: String) async throws(AppStoreServerAPIError) -> JWSRenewalInfoDecodedPayload {
        try await verify { verifier throws(VerificationError) in try await verifier.verifyRenewalInfo(signed) }
    }

    /// The first verifier's verdict that accepts the data; the first refusal otherwise.
    private func verify<T>(_ check: (SignedDataVerifier) async throws(VerificationError) -> T) async throws(AppStoreServerAPIError) -> T {
        var first: VerificationError?
        for verifier in verifiers {
            do {
                return try await check(verifier)
            } catch {
                first = first ?? error
            }
        }
        throw AppStoreServerAPIError(.verification, first.map { "\($0.code): \($0.message)" } ?? "no verifier is configured")
    }

    static func segment(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? value
    }
}

extension Optional {
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws(AppStoreServerAPIError) -> T) async throws(AppStoreServerAPIError) -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
