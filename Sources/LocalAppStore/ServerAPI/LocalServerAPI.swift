import AppStoreModels
import Crypto
import Foundation
import NIOConcurrencyHelpers

/// The App Store Server API as the local App Store answers it: Apple's paths, answered from what the
/// store signed (transactions, renewal info, notifications), with the request's token checked as Apple
/// checks it (ES256 with the app's key, `kid`, `iss`, `aud`, `bid`, `iat`, `exp` at most an hour after
/// `iat`); 401 otherwise. Serve it over HTTP with any server (`handle` is transport-free).
public final class LocalServerAPI: Sendable {
    /// What a token must carry to be accepted.
    public struct Credentials: Sendable {
        public var keyID: String
        public var issuerID: String
        public var bundleID: String
        public var publicKey: P256.Signing.PublicKey
        public init(keyID: String, issuerID: String, bundleID: String, publicKey: P256.Signing.PublicKey) {
            self.keyID = keyID
            self.issuerID = issuerID
            self.bundleID = bundleID
            self.publicKey = publicKey
        }
    }

    /// An answer, for whatever serves it.
    public struct Answer: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data
    }

    private struct State {
        var transactions: [(signed: String, decoded: JWSTransactionDecodedPayload)] = []
        var renewals: [String: String] = [:]
        var notifications: [(signed: String, at: Date)] = []
        var failures: [Answer] = []
    }

    let credentials: Credentials
    let now: @Sendable () -> Date
    /// Items per page of history answers (small, so paging is exercised).
    let pageSize: Int
    private let state = NIOLockedValueBox(State())

    public init(credentials: Credentials, pageSize: Int = 2, now: @escaping @Sendable () -> Date) {
        self.credentials = credentials
        self.pageSize = pageSize
        self.now = now
    }

    // MARK: - What the store signed

    public func record(transaction signed: String, _ decoded: JWSTransactionDecodedPayload) {
        state.withLockedValue { $0.transactions.append((signed, decoded)) }
    }

    public func record(renewalInfo signed: String, originalTransactionID: String) {
        state.withLockedValue { $0.renewals[originalTransactionID] = signed }
    }

    /// Records a notification the store sent (delivered or not: Apple's history holds both), and the
    /// transaction and renewal info it carries.
    public func record(notification signedPayload: String, at: Date) {
        let payload = Self.unverifiedPayload(signedPayload, as: ResponseBodyV2DecodedPayload.self)
        let transaction = payload?.data?.signedTransactionInfo.flatMap { signed in
            Self.unverifiedPayload(signed, as: JWSTransactionDecodedPayload.self).map { (signed, $0) }
        }
        let renewal = payload?.data?.signedRenewalInfo.flatMap { signed in
            Self.unverifiedPayload(signed, as: JWSRenewalInfoDecodedPayload.self).map { (signed, $0) }
        }
        state.withLockedValue { state in
            state.notifications.append((signedPayload, at))
            if let transaction, !state.transactions.contains(where: { $0.signed == transaction.0 }) { state.transactions.append(transaction) }
            if let renewal, let original = renewal.1.originalTransactionId { state.renewals[original] = renewal.0 }
        }
    }

    /// The payload of a JWS this store signed itself, read without verifying (it is the store's own).
    static func unverifiedPayload<T: Decodable>(_ jws: String, as type: T.Type) -> T? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let json = Base64URL.decode(String(parts[1])) else { return nil }
        return try? AppStoreJSON.decoder().decode(T.self, from: json)
    }

    /// The bundle ID a token names (`bid`), before it is checked: which app's stand-in answers it.
    public static func bundleID(ofToken authorization: String?) -> String? {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return nil }
        let parts = authorization.dropFirst(7).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let json = Base64URL.decode(String(parts[1])),
            let claims = try? JSONSerialization.jsonObject(with: json) as? [String: Any]
        else { return nil }
        return claims["bid"] as? String
    }

    /// The next request is answered `status` (with `retryAfter` seconds, or Apple's `errorCode`), once.
    public func failNext(status: Int, retryAfter: Int? = nil, errorCode: Int? = nil) {
        var headers = ["Content-Type": "application/json"]
        if let retryAfter { headers["Retry-After"] = String(retryAfter) }
        let body = errorCode.map { Data("{\"errorCode\":\($0),\"errorMessage\":\"injected\"}".utf8) } ?? Data()
        state.withLockedValue { $0.failures.append(Answer(status: status, headers: headers, body: body)) }
    }

    // MARK: - Requests

    public func handle(method: String, path: String, query: [String: String], authorization: String?, body: Data?) -> Answer {
        guard let authorization, authorization.hasPrefix("Bearer "), accepts(String(authorization.dropFirst(7))) else {
            return Answer(status: 401, headers: [:], body: Data())
        }
        if let failure = state.withLockedValue({ $0.failures.isEmpty ? nil : $0.failures.removeFirst() }) { return failure }
        let parts = path.split(separator: "/").map(String.init)
        switch (method, parts.count >= 3 ? Array(parts.prefix(3)) : parts) {
        case ("GET", ["inApps", "v1", "transactions"]) where parts.count == 4:
            guard let found = state.withLockedValue({ $0.transactions.last { $0.decoded.transactionId == parts[3] } }) else {
                return Self.error(404, 4040010, "Transaction id not found.")
            }
            return Self.json(["signedTransactionInfo": found.signed])
        case ("GET", ["inApps", "v2", "history"]) where parts.count == 4:
            let chain = self.chain(of: parts[3])
            guard !chain.isEmpty else { return Self.error(404, 4040010, "Transaction id not found.") }
            let start = Int(query["revision"] ?? "0") ?? 0
            let page = Array(chain.dropFirst(start).prefix(pageSize))
            let next = start + page.count
            return Self.json([
                "signedTransactions": page.map(\.signed), "revision": String(next), "hasMore": next < chain.count, "bundleId": credentials.bundleID,
                "environment": "Sandbox",
            ])
        case ("GET", ["inApps", "v1", "subscriptions"]) where parts.count == 4:
            let chain = self.chain(of: parts[3])
            guard let latest = chain.last else { return Self.error(404, 4040010, "Transaction id not found.") }
            let original = latest.decoded.originalTransactionId ?? latest.decoded.transactionId ?? ""
            let status = latest.decoded.revocationDate != nil ? 5 : ((latest.decoded.expiresDate ?? .distantFuture) > now() ? 1 : 2)
            var item: [String: Any] = ["status": status, "originalTransactionId": original, "signedTransactionInfo": latest.signed]
            if let renewal = state.withLockedValue({ $0.renewals[original] }) { item["signedRenewalInfo"] = renewal }
            return Self.json(["environment": "Sandbox", "bundleId": credentials.bundleID, "data": [["subscriptionGroupIdentifier": "", "lastTransactions": [item]]]])
        case ("POST", ["inApps", "v1", "notifications"]) where parts.count == 4 && parts[3] == "history":
            guard let body, let request = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
                let startMillis = request["startDate"] as? Int64 ?? (request["startDate"] as? Int).map(Int64.init),
                let endMillis = request["endDate"] as? Int64 ?? (request["endDate"] as? Int).map(Int64.init)
            else { return Self.error(400, 4000000, "Invalid request.") }
            let (from, to) = (Date(timeIntervalSince1970: Double(startMillis) / 1000), Date(timeIntervalSince1970: Double(endMillis) / 1000))
            let matching = state.withLockedValue { $0.notifications.filter { $0.at >= from && $0.at < to } }
            let start = Int(query["paginationToken"] ?? "0") ?? 0
            let page = Array(matching.dropFirst(start).prefix(pageSize))
            let next = start + page.count
            var answer: [String: Any] = ["notificationHistory": page.map { ["signedPayload": $0.signed] }, "hasMore": next < matching.count]
            if next < matching.count { answer["paginationToken"] = String(next) }
            return Self.json(answer)
        default:
            return Self.error(404, 4040000, "No such endpoint: \(method) \(path)")
        }
    }

    /// The transactions of the purchase chain `transactionID` belongs to, in order.
    private func chain(of transactionID: String) -> [(signed: String, decoded: JWSTransactionDecodedPayload)] {
        state.withLockedValue { state in
            guard let known = state.transactions.last(where: { $0.decoded.transactionId == transactionID || $0.decoded.originalTransactionId == transactionID })
            else { return [] }
            let original = known.decoded.originalTransactionId ?? known.decoded.transactionId
            return state.transactions.filter { ($0.decoded.originalTransactionId ?? $0.decoded.transactionId) == original }
        }
    }

    /// Whether `token` is one Apple would take from this app.
    func accepts(_ token: String) -> Bool {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Base64URL.decode(String(parts[0])), let claimsData = Base64URL.decode(String(parts[1])),
            let signature = Base64URL.decode(String(parts[2])),
            let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: claimsData) as? [String: Any],
            header["alg"] as? String == "ES256", header["kid"] as? String == credentials.keyID,
            claims["aud"] as? String == "appstoreconnect-v1", claims["iss"] as? String == credentials.issuerID,
            claims["bid"] as? String == credentials.bundleID,
            let issued = (claims["iat"] as? NSNumber)?.doubleValue, let expires = (claims["exp"] as? NSNumber)?.doubleValue,
            let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature)
        else { return false }
        let now = now().timeIntervalSince1970
        guard issued <= now + 60, expires > now, expires - issued <= 3600 else { return false }
        return credentials.publicKey.isValidSignature(ecdsa, for: Data("\(parts[0]).\(parts[1])".utf8))
    }

    private static func json(_ object: [String: Any]) -> Answer {
        Answer(status: 200, headers: ["Content-Type": "application/json"], body: (try? JSONSerialization.data(withJSONObject: object)) ?? Data())
    }

    private static func error(_ status: Int, _ code: Int, _ message: String) -> Answer {
        Answer(status: status, headers: ["Content-Type": "application/json"], body: json(["errorCode": code, "errorMessage": message]).body)
    }
}
