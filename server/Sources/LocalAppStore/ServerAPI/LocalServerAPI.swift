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

    struct State {
        var transactions: [(signed: String, decoded: JWSTransactionDecodedPayload)] = []
        var renewals: [String: String] = [:]
        var notifications: [(signed: String, at: Date)] = []
        var failures: [Answer] = []
        var testNotifications: [String: (signed: String, attempts: [(at: Date, result: String)])] = [:]
        var massExtensions: [String: (productID: String, succeeded: Int, failed: Int, at: Date)] = [:]
        /// Send Consumption Information requests received, by transaction ID.
        var consumption: [String: ConsumptionReport] = [:]
        /// Set App Account Token requests received, by original transaction ID.
        var accountTokens: [String: UUID] = [:]
        /// Transactions the app's server finished (Finish Transaction), by transaction ID.
        var finished: Set<String> = []
        /// App transaction IDs handed out, with the original transaction ID each stands for.
        var appTransactions: [String: String] = [:]
    }

    /// A Send Consumption Information request as the stand-in received it.
    public struct ConsumptionReport: Hashable, Sendable {
        public var customerConsented: Bool
        public var consumptionPercentage: Int?
        public var deliveryStatus: String
        public var sampleContentProvided: Bool
        public var refundPreference: String?
    }

    /// What the stand-in does that Apple's store does itself: sign (test notifications, extended
    /// transactions) and send notifications to the app's server.
    public struct Store: Sendable {
        public var signer: AppStoreSigner
        public var environment: Environment
        /// Sends a notification to the app's server; whether it was acknowledged.
        public var deliver: @Sendable (String) async -> Bool

        public init(signer: AppStoreSigner, environment: Environment = .sandbox, deliver: @escaping @Sendable (String) async -> Bool) {
            self.signer = signer
            self.environment = environment
            self.deliver = deliver
        }
    }

    let credentials: Credentials
    let now: @Sendable () -> Date
    /// Items per page of history answers (small, so paging is exercised).
    let pageSize: Int
    let state = NIOLockedValueBox(State())

    let store: Store?

    public init(credentials: Credentials, pageSize: Int = 2, store: Store? = nil, now: @escaping @Sendable () -> Date) {
        self.credentials = credentials
        self.pageSize = pageSize
        self.store = store
        self.now = now
    }

    /// The consumption information received for `transactionID`.
    public func consumptionReport(transactionID: String) -> ConsumptionReport? { state.withLockedValue { $0.consumption[transactionID] } }

    /// The appAccountToken set on `originalTransactionID` through the API.
    public func appAccountToken(originalTransactionID: String) -> UUID? { state.withLockedValue { $0.accountTokens[originalTransactionID] } }

    /// The order ID of a transaction's purchase, as the customer's receipt email shows it.
    public static func orderID(transactionID: String) -> String {
        "M" + String(UInt64(transactionID) ?? UInt64(truncatingIfNeeded: transactionID.hashValue), radix: 36).uppercased()
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
        let payload = CompactSerialization.unverifiedPayload(of: signedPayload, as: ResponseBodyV2DecodedPayload.self)
        let transaction = payload?.data?.signedTransactionInfo.flatMap { signed in
            CompactSerialization.unverifiedPayload(of: signed, as: JWSTransactionDecodedPayload.self).map { (signed, $0) }
        }
        let renewal = payload?.data?.signedRenewalInfo.flatMap { signed in
            CompactSerialization.unverifiedPayload(of: signed, as: JWSRenewalInfoDecodedPayload.self).map { (signed, $0) }
        }
        state.withLockedValue { state in
            state.notifications.append((signedPayload, at))
            if let transaction, !state.transactions.contains(where: { $0.signed == transaction.0 }) { state.transactions.append(transaction) }
            if let renewal, let original = renewal.1.originalTransactionId { state.renewals[original] = renewal.0 }
        }
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

    /// The next request is answered `status` (with Apple's `errorCode`, and a `Retry-After` of `retryAt`
    /// as Apple writes it: UNIX time in milliseconds), once.
    public func failNext(status: Int, retryAt: Date? = nil, errorCode: Int? = nil) {
        var headers = ["Content-Type": "application/json"]
        if let retryAt { headers["Retry-After"] = String(Int64((retryAt.timeIntervalSince1970 * 1000).rounded())) }
        let body = errorCode.map { Data("{\"errorCode\":\($0),\"errorMessage\":\"injected\"}".utf8) } ?? Data()
        state.withLockedValue { $0.failures.append(Answer(status: status, headers: headers, body: body)) }
    }

    // MARK: - Requests

    public func handle(method: String, path: String, query: [String: String], authorization: String?, body: Data?) async -> Answer {
        guard let authorization, authorization.hasPrefix("Bearer "), accepts(String(authorization.dropFirst(7))) else {
            return Answer(status: 401, headers: [:], body: Data())
        }
        if let failure = state.withLockedValue({ $0.failures.isEmpty ? nil : $0.failures.removeFirst() }) { return failure }
        let parts = path.split(separator: "/").map(String.init)
        switch (method, parts.count >= 3 ? Array(parts.prefix(3)) : parts) {
        case ("GET", ["inApps", "v1", "transactions"]) where parts.count == 5 && parts[3] == "appTransactions":
            return appTransactionInfo(anyTransactionID: parts[4])
        case ("POST", ["inApps", "v1", "transactions"]) where parts.count == 5 && parts[4] == "finish":
            return finishTransaction(parts[3])
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
        case ("GET", ["inApps", "v2", "refund"]) where parts.count == 5 && parts[3] == "lookup":
            let refunded = chain(of: parts[4]).filter { $0.decoded.revocationDate != nil }
            let start = Int(query["revision"] ?? "0") ?? 0
            let page = Array(refunded.dropFirst(start).prefix(pageSize))
            let next = start + page.count
            return Self.json(["signedTransactions": page.map(\.signed), "revision": String(next), "hasMore": next < refunded.count])
        case ("GET", ["inApps", "v1", "lookup"]) where parts.count == 4:
            let order = state.withLockedValue { state in
                state.transactions.filter { Self.orderID(transactionID: $0.decoded.originalTransactionId ?? $0.decoded.transactionId ?? "") == parts[3] }
            }
            // The latest version of each transaction of the order.
            var latest: [String: String] = [:]
            for item in order { latest[item.decoded.transactionId ?? ""] = item.signed }
            return Self.json(["status": order.isEmpty ? 1 : 0, "signedTransactions": latest.keys.sorted().compactMap { latest[$0] }])
        case ("POST", ["inApps", "v1", "notifications"]) where parts.count == 4 && parts[3] == "test":
            guard let store else { return Self.error(500, 5000000, "This stand-in has no store to send notifications.") }
            let payload = ResponseBodyV2DecodedPayload(
                notificationType: .test, notificationUUID: UUID().uuidString.lowercased(),
                data: NotificationData(environment: store.environment, bundleId: credentials.bundleID), version: "2.0", signedDate: now())
            guard let signed = try? store.signer.sign(payload) else { return Self.error(500, 5000000, "The test notification can't be signed.") }
            let token = UUID().uuidString.lowercased() + "_" + String(Int64(now().timeIntervalSince1970 * 1000))
            let delivered = await store.deliver(signed)
            record(notification: signed, at: now())
            state.withLockedValue { $0.testNotifications[token] = (signed, [(now(), delivered ? "SUCCESS" : "NO_RESPONSE")]) }
            return Self.json(["testNotificationToken": token])
        case ("GET", ["inApps", "v1", "notifications"]) where parts.count == 5 && parts[3] == "test":
            guard let test = state.withLockedValue({ $0.testNotifications[parts[4]] }) else {
                return Self.error(404, 4040008, "Test notification not found.")
            }
            return Self.json([
                "signedPayload": test.signed,
                "sendAttempts": test.attempts.map { ["attemptDate": Int64($0.at.timeIntervalSince1970 * 1000), "sendAttemptResult": $0.result] },
            ])
        case ("PUT", ["inApps", "v1", "subscriptions"]) where parts.count == 5 && parts[3] == "extend":
            guard let request = body.flatMap({ try? JSONDecoder().decode(ExtendRequest.self, from: $0) }),
                (1...90).contains(request.extendByDays), (0...3).contains(request.extendReasonCode), !request.requestIdentifier.isEmpty
            else { return Self.error(400, 4000009, "Invalid extend by days, reason code or request identifier.") }
            guard let latest = chain(of: parts[4]).last else { return Self.error(404, 4040005, "Original transaction id not found.") }
            switch await extend(latest, days: request.extendByDays, reason: request.extendReasonCode) {
            case .extended(let expires):
                return Self.json([
                    "originalTransactionId": parts[4], "webOrderLineItemId": latest.decoded.webOrderLineItemId ?? "", "success": true,
                    "effectiveDate": Int64(expires.timeIntervalSince1970 * 1000),
                ])
            case .notEligible:
                return Self.error(403, 4030004, "Subscription extension ineligible.")
            case .failed:
                return Self.error(500, 5000000, "An unknown error occurred.")
            }
        case ("POST", ["inApps", "v1", "subscriptions"]) where parts.count == 5 && parts[3] == "extend" && parts[4] == "mass":
            guard let request = body.flatMap({ try? JSONDecoder().decode(ExtendRequest.self, from: $0) }), let productID = request.productId,
                (1...90).contains(request.extendByDays), (0...3).contains(request.extendReasonCode), !request.requestIdentifier.isEmpty
            else { return Self.error(400, 4000009, "Invalid extend by days, reason code, request identifier or product.") }
            let active = state.withLockedValue { state in
                Dictionary(grouping: state.transactions, by: { $0.decoded.originalTransactionId ?? $0.decoded.transactionId ?? "" }).values
                    .compactMap(\.last).filter { $0.decoded.productId == productID }
            }
            var (succeeded, failed) = (0, 0)
            for latest in active {
                switch await extend(latest, days: request.extendByDays, reason: request.extendReasonCode) {
                case .extended: succeeded += 1
                case .failed: failed += 1
                case .notEligible: break
                }
            }
            state.withLockedValue { $0.massExtensions[request.requestIdentifier] = (productID, succeeded, failed, now()) }
            return Self.json(["requestIdentifier": request.requestIdentifier])
        case ("GET", ["inApps", "v1", "subscriptions"]) where parts.count == 7 && parts[3] == "extend" && parts[4] == "mass":
            guard let mass = state.withLockedValue({ $0.massExtensions[parts[6]] }), mass.productID == parts[5] else {
                return Self.error(404, 4040009, "Status request not found.")
            }
            return Self.json([
                "requestIdentifier": parts[6], "complete": true, "completeDate": Int64(mass.at.timeIntervalSince1970 * 1000),
                "succeededCount": mass.succeeded, "failedCount": mass.failed,
            ])
        case ("PUT", ["inApps", "v2", "transactions"]) where parts.count == 5 && parts[3] == "consumption":
            guard let object = body.flatMap({ try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }),
                let consented = object["customerConsented"] as? Bool, let delivery = object["deliveryStatus"] as? String,
                let sample = object["sampleContentProvided"] as? Bool
            else { return Self.error(400, 4000000, "Invalid request.") }
            guard consented else { return Self.error(400, 4000183, "Invalid customer consented.") }
            let percentage = (object["consumptionPercentage"] as? NSNumber)?.intValue
            guard ["DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE", "UNDELIVERED_OTHER"].contains(delivery)
            else { return Self.error(400, 4000050, "Invalid delivery status.") }
            if let percentage, !(0...100_000).contains(percentage) || (delivery != "DELIVERED" && percentage != 0) {
                return Self.error(400, 4000184, "Invalid consumption percentage.")
            }
            guard state.withLockedValue({ state in state.transactions.contains { $0.decoded.transactionId == parts[4] } }) else {
                return Self.error(404, 4040010, "Transaction id not found.")
            }
            state.withLockedValue {
                $0.consumption[parts[4]] = ConsumptionReport(
                    customerConsented: consented, consumptionPercentage: percentage, deliveryStatus: delivery, sampleContentProvided: sample,
                    refundPreference: object["refundPreference"] as? String)
            }
            return Answer(status: 202, headers: [:], body: Data())
        case ("PUT", ["inApps", "v1", "transactions"]) where parts.count == 5 && parts[4] == "appAccountToken":
            guard let object = body.flatMap({ try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }),
                let token = (object["appAccountToken"] as? String).flatMap(UUID.init(uuidString:))
            else { return Self.error(400, 4000181, "Invalid app account token.") }
            guard chain(of: parts[3]).first?.decoded.originalTransactionId == parts[3] || chain(of: parts[3]).first?.decoded.transactionId == parts[3]
            else { return Self.error(404, 4040005, "Original transaction id not found.") }
            state.withLockedValue { $0.accountTokens[parts[3]] = token }
            return Answer(status: 200, headers: [:], body: Data())
        default:
            return Self.error(404, 4040000, "No such endpoint: \(method) \(path)")
        }
    }

    private struct ExtendRequest: Decodable {
        var extendByDays: Int
        var extendReasonCode: Int
        var requestIdentifier: String
        var productId: String?
    }

    private enum Extension {
        case extended(Date)
        case notEligible
        case failed
    }

    /// Extends the subscription whose latest transaction is `latest`, as Apple does: an active,
    /// unrevoked subscription's expiry moves `days` later; the transaction is re-signed and a
    /// RENEWAL_EXTENDED notification sent.
    private func extend(_ latest: (signed: String, decoded: JWSTransactionDecodedPayload), days: Int, reason: Int) async -> Extension {
        guard let store else { return .failed }
        guard latest.decoded.type == .autoRenewable, latest.decoded.revocationDate == nil, let expires = latest.decoded.expiresDate, expires > now()
        else { return .notEligible }
        var transaction = latest.decoded
        let newExpiry = expires.addingTimeInterval(Double(days) * 86_400)
        transaction.expiresDate = newExpiry
        // A new version of the transaction: signed after the one it replaces, even on a clock that stands still.
        transaction.signedDate = max(now(), (latest.decoded.signedDate ?? .distantPast).addingTimeInterval(0.001))
        guard let signedTransaction = try? store.signer.sign(transaction) else { return .failed }
        let payload = ResponseBodyV2DecodedPayload(
            notificationType: .renewalExtended, notificationUUID: UUID().uuidString.lowercased(),
            data: NotificationData(environment: store.environment, bundleId: credentials.bundleID, signedTransactionInfo: signedTransaction, status: .active),
            version: "2.0", signedDate: now())
        guard let signed = try? store.signer.sign(payload) else { return .failed }
        record(notification: signed, at: now())
        _ = await store.deliver(signed)
        return .extended(newExpiry)
    }

    /// The transactions of the purchase chain `transactionID` belongs to, in order.
    func chain(of transactionID: String) -> [(signed: String, decoded: JWSTransactionDecodedPayload)] {
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

    static func json(_ object: [String: Any]) -> Answer {
        Answer(status: 200, headers: ["Content-Type": "application/json"], body: (try? JSONSerialization.data(withJSONObject: object)) ?? Data())
    }

    static func error(_ status: Int, _ code: Int, _ message: String) -> Answer {
        Answer(status: status, headers: ["Content-Type": "application/json"], body: json(["errorCode": code, "errorMessage": message]).body)
    }
}
