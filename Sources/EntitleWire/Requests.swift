import Foundation

/// `POST /v1/app-store/notifications`: the body exactly as Apple sends it.
public struct AppStoreNotificationRequest: Codable, Hashable, Sendable {
    public var signedPayload: String
    public init(signedPayload: String) { self.signedPayload = signedPayload }
}

/// `POST /v1/subscribers/{appUserID}/transactions`: a StoreKit 2 `jwsRepresentation`.
public struct SubmitTransactionRequest: Codable, Hashable, Sendable {
    /// The JWS StoreKit handed the app (`VerificationResult.jwsRepresentation`).
    public var signedTransaction: String?
    /// Or a transaction ID alone: the server fetches the transaction from the App Store Server API.
    public var transactionId: String?
    /// Whether the app user claims the purchase (a purchase or a restore they made on this device): under
    /// the `transfer` restore policy a purchase another subscriber owns moves to them only then. `false` for
    /// what a device syncs in the background (StoreKit's transaction updates), so two devices of one Apple
    /// account never move a purchase back and forth. Absent: a claim.
    public var transfer: Bool?
    public init(signedTransaction: String, transfer: Bool? = nil) {
        self.signedTransaction = signedTransaction
        self.transfer = transfer
    }
    public init(transactionId: String) { self.transactionId = transactionId }
}

/// `POST /v1/subscribers/{appUserID}/usage`: one metered use, with the client's idempotency key.
public struct RecordUsageRequest: Codable, Hashable, Sendable {
    public var feature: String
    public var amount: Int?
    public var idempotencyKey: String
    public init(feature: String, amount: Int? = nil, idempotencyKey: String) {
        self.feature = feature
        self.amount = amount
        self.idempotencyKey = idempotencyKey
    }
}

/// Every error body: `{"error": {"code": …, "message": …}}`.
public struct ErrorResponse: Codable, Hashable, Sendable {
    public struct Detail: Codable, Hashable, Sendable {
        public var code: String
        public var message: String
        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    public var error: Detail
    public init(code: String, message: String) { error = Detail(code: code, message: message) }
}
