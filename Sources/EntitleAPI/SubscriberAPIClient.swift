import EntitleCore
import EntitleWire
import Foundation

/// What an app does against its Entitle server: start the app-managed trial, submit a StoreKit
/// transaction, report an Ask to Buy request or its decline, sign a promotional offer, read the subscriber. Authenticated with a key; any transport.
public struct SubscriberAPIClient: Sendable {
    public let baseURL: URL
    private let key: String
    private let transport: any HTTPTransport
    private let timeout: Duration
    /// The app (bundle ID) a server of several apps should use, sent as `Entitle-App`; app keys need none.
    public let app: String?

    public init(
        baseURL: URL, key: String, app: String? = nil, transport: any HTTPTransport = URLSessionTransport(), timeout: Duration = .seconds(30)
    ) {
        self.baseURL = baseURL
        self.key = key
        self.app = app
        self.transport = transport
        self.timeout = timeout
    }

    public func startTrial(_ appUserID: String) async throws(APIClientError) -> SubscriberResponse {
        try await send("POST", Self.subscriberPath(appUserID) + "/trial", body: nil)
    }

    public func submit(_ appUserID: String, signedTransaction: String, transfer: Bool? = nil) async throws(APIClientError) -> SubscriberResponse {
        try await send(
            "POST", Self.subscriberPath(appUserID) + "/transactions",
            body: try Self.encode(SubmitTransactionRequest(signedTransaction: signedTransaction, transfer: transfer)))
    }

    /// A promotional offer of `productID` signed for the subscriber (`POST …/promotional-offers`): refused
    /// with `offer.notEligible` when the catalog's rule leaves them out, `offer.unknown` for an offer the
    /// product doesn't have.
    public func promotionalOffer(_ appUserID: String, productID: String, offerID: String) async throws(APIClientError) -> PromotionalOfferResponse {
        try await send(
            "POST", Self.subscriberPath(appUserID) + "/promotional-offers",
            body: try Self.encode(PromotionalOfferRequest(productID: productID, offerID: offerID)))
    }

    /// Reports that StoreKit answered a purchase of `productID` with `.pending` (Ask to Buy).
    public func reportPendingPurchase(_ appUserID: String, productID: String) async throws(APIClientError) -> SubscriberResponse {
        try await send(
            "POST", Self.subscriberPath(appUserID) + "/pending-purchases", body: try Self.encode(PendingPurchaseRequest(productID: productID)))
    }

    /// Reports that the Ask to Buy request for `productID` was declined.
    public func declinePendingPurchase(_ appUserID: String, productID: String) async throws(APIClientError) -> SubscriberResponse {
        try await send("POST", Self.subscriberPath(appUserID) + "/pending-purchases/" + Self.segment(productID) + "/decline", body: nil)
    }

    public func subscriber(_ appUserID: String) async throws(APIClientError) -> SubscriberResponse {
        try await send("GET", Self.subscriberPath(appUserID), body: nil)
    }

    /// The subscriber with the exact body the server sent and its `Entitle-Signature` (when it signs),
    /// for a cache that verifies what it keeps.
    /// - Parameter accessPeriods: also every declared feature's access now and after the next changes,
    ///   for gating offline.
    public func signedSubscriber(_ appUserID: String, accessPeriods: Bool = false) async throws(APIClientError) -> SignedAnswer {
        try await signed("GET", Self.subscriberPath(appUserID) + (accessPeriods ? "?access=periods" : ""), body: nil)
    }

    /// Deletes the customer (`DELETE /v1/subscribers/{appUserID}`, docs/deletion.md): their personal data
    /// erased on the server, their purchases kept under a pseudonym.
    public func deleteSubscriber(_ appUserID: String) async throws(APIClientError) -> SubscriberDeletionResponse {
        try await send("DELETE", Self.subscriberPath(appUserID), body: nil)
    }

    /// Sets (or, with `nil`, clears) the subscriber's attributes (`PATCH …/attributes`): the documented ones
    /// (`timeZone`, `email`, `displayName`, `locale`) and the app's own, which targeting matches.
    public func setAttributes(_ appUserID: String, _ values: [String: String?]) async throws(APIClientError) -> SubscriberResponse {
        try await send("PATCH", Self.subscriberPath(appUserID) + "/attributes", body: try Self.encode(SetAttributesRequest(values)))
    }

    /// Logs the anonymous subscriber in as `known` (`POST …/alias`), signed like ``signedSubscriber(_:)``.
    /// - Parameter logInToken: the app backend's proof that the user is `known` (docs/identity.md);
    ///   the answer's ``SignedAnswer/subscriberKey`` is then the known user's own public key.
    public func logIn(_ anonymous: String, as known: String, logInToken: String? = nil) async throws(APIClientError) -> SignedAnswer {
        try await signed(
            "POST", Self.subscriberPath(anonymous) + "/alias", body: try Self.encode(AliasRequest(appUserID: known, logInToken: logInToken)))
    }

    /// This client with another key (the public key a log-in with a token returned).
    public func using(key: String) -> SubscriberAPIClient {
        SubscriberAPIClient(baseURL: baseURL, key: key, app: app, transport: transport, timeout: timeout)
    }

    /// Records metered usage.
    public func recordUsage(_ appUserID: String, feature: String, amount: Int, idempotencyKey: String) async throws(APIClientError) -> AccessResponse {
        try await send(
            "POST", Self.subscriberPath(appUserID) + "/usage",
            body: try Self.encode(RecordUsageRequest(feature: feature, amount: amount, idempotencyKey: idempotencyKey)))
    }

    /// The server's answer to "may the subscriber use `feature` now?" (`usage`: how many a limit would be
    /// at, how much a quota use consumes), as `GET /v1/subscribers/{id}/access/{feature}` gives it.
    public func access(_ appUserID: String, feature: String, usage: Int = 1) async throws(APIClientError) -> AccessResponse {
        try await send("GET", Self.subscriberPath(appUserID) + "/access/" + Self.segment(feature) + "?usage=\(usage)", body: nil)
    }

    /// Records what the app's paywall did (1 to 100 events, each stored once by its ID).
    public func recordPaywallEvents(_ appUserID: String, events: [PaywallEvent]) async throws(APIClientError) -> PaywallEventsResponse {
        try await send("POST", Self.subscriberPath(appUserID) + "/paywall-events", body: try Self.encode(PaywallEventsRequest(events: events)))
    }

    /// Registers something counted against `limit` (pairs a child device): registered, or refused with the
    /// limit's access answer (its reason and paywall).
    public func registerItem(_ appUserID: String, limit: String, id: String, name: String? = nil) async throws(APIClientError) -> ItemRegistrationResponse {
        try await send("POST", Self.subscriberPath(appUserID) + "/items", body: try Self.encode(RegisterItemRequest(limit: limit, id: id, name: name)))
    }

    /// Renames a registered item.
    public func renameItem(_ appUserID: String, limit: String, id: String, name: String) async throws(APIClientError) -> ItemsResponse {
        try await send("PATCH", Self.itemPath(appUserID, limit: limit, id: id), body: try Self.encode(RenameItemRequest(name: name)))
    }

    /// Removes a registered item.
    public func removeItem(_ appUserID: String, limit: String, id: String) async throws(APIClientError) -> ItemsResponse {
        try await send("DELETE", Self.itemPath(appUserID, limit: limit, id: id), body: nil)
    }

    /// The subscriber's registered items (of `limit`, when given).
    public func items(_ appUserID: String, limit: String? = nil) async throws(APIClientError) -> ItemsResponse {
        try await send("GET", Self.subscriberPath(appUserID) + "/items" + (limit.map { "?limit=" + Self.segment($0) } ?? ""), body: nil)
    }

    static func itemPath(_ appUserID: String, limit: String, id: String) -> String {
        Self.subscriberPath(appUserID) + "/items/" + Self.segment(limit) + "/" + Self.segment(id)
    }

    /// The offerings as the subscriber's paywall shows them: the current one chosen by an experiment
    /// (enrolling them when first served), targeting or the default (`GET /v1/subscribers/{id}/offerings`).
    public func subscriberOfferings(_ appUserID: String, storefront: String? = nil, appVersion: String? = nil) async throws(APIClientError) -> OfferingsResponse {
        let query = [storefront.map { "storefront=" + Self.segment($0) }, appVersion.map { "appVersion=" + Self.segment($0) }].compactMap { $0 }
        return try await send("GET", Self.subscriberPath(appUserID) + "/offerings" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")), body: nil)
    }

    public func offerings(appUserID: String? = nil) async throws(APIClientError) -> OfferingsResponse {
        let query = appUserID.map { "?appUserID=" + Self.segment($0) } ?? ""
        return try await send("GET", "/v1/offerings" + query, body: nil)
    }

    /// A subscriber answer as it came: decoded, with its exact bytes and signature.
    public struct SignedAnswer: Sendable {
        public var response: SubscriberResponse
        public var body: Data
        public var signature: String?
        /// The known user's own public key (`Entitle-Subscriber-Key`), answered to a log-in with a token.
        public var subscriberKey: String?
    }

    private func signed(_ method: String, _ path: String, body: Data?) async throws(APIClientError) -> SignedAnswer {
        let answer = try await exchange(method, path, body: body)
        do {
            let response = try WireJSON.decoder.decode(SubscriberResponse.self, from: answer.body)
            return SignedAnswer(
                response: response, body: answer.body, signature: answer.headers["entitle-signature"],
                subscriberKey: answer.headers["entitle-subscriber-key"])
        } catch {
            throw APIClientError(.unexpectedResponse, "\(method) \(path) answered a body that is not a subscriber: \(error)", underlying: error)
        }
    }

    /// Whether the server answers `/health`.
    public func isHealthy() async -> Bool {
        (try? await transport.send(APIRequest(method: "GET", path: "/health"), to: baseURL, timeout: .seconds(2)).status) == 200
    }

    /// `/v1/subscribers/{appUserID}`, the ID percent-encoded as one path segment.
    public static func subscriberPath(_ appUserID: String) -> String {
        "/v1/subscribers/" + segment(appUserID)
    }

    /// `value` percent-encoded as one path segment.
    static func segment(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: segmentCharacters) ?? value
    }

    /// What a path segment may hold unencoded.
    private static let segmentCharacters: CharacterSet = {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#%")
        return allowed
    }()

    private func send<T: Decodable>(_ method: String, _ path: String, body: Data?) async throws(APIClientError) -> T {
        let response = try await exchange(method, path, body: body)
        do {
            return try WireJSON.decoder.decode(T.self, from: response.body)
        } catch {
            throw APIClientError(.unexpectedResponse, "\(method) \(path) answered a body that is not a \(T.self): \(error)", underlying: error)
        }
    }

    /// One request with the key (and app); a refusal is an error carrying the server's code.
    private func exchange(_ method: String, _ path: String, body: Data?) async throws(APIClientError) -> APIResponse {
        var headers = ["Authorization": "Bearer \(key)"]
        if let app { headers["Entitle-App"] = app }
        if body != nil { headers["Content-Type"] = "application/json" }
        let response = try await transport.send(APIRequest(method: method, path: path, headers: headers, body: body), to: baseURL, timeout: timeout)
        guard (200..<300).contains(response.status) else {
            let error = try? WireJSON.decoder.decode(ErrorResponse.self, from: response.body).error
            throw APIClientError(
                .refused, "\(method) \(path) answered \(response.status): \(error?.message ?? String(decoding: response.body.prefix(500), as: UTF8.self))",
                status: response.status, serverCode: error?.code)
        }
        return response
    }

    private static func encode<T: Encodable>(_ value: T) throws(APIClientError) -> Data {
        do {
            return try WireJSON.encoder.encode(value)
        } catch {
            throw APIClientError(.invalidRequest, "the request does not encode: \(error)", underlying: error)
        }
    }
}
