import Foundation

/// `GET /v1/orders/{orderID}`: an order ID from a customer's receipt email, looked up with Apple.
public struct OrderResponse: Codable, Hashable, Sendable {
    /// One transaction of the order, and the subscriber its purchase belongs to here.
    public struct Purchase: Codable, Hashable, Sendable {
        public var originalTransactionID: String
        public var transactionID: String
        public var productID: String
        public var purchasedAt: Date?
        public var revokedAt: Date?
        public var appUserID: String?

        public init(originalTransactionID: String, transactionID: String, productID: String, purchasedAt: Date?, revokedAt: Date?, appUserID: String?) {
            self.originalTransactionID = originalTransactionID
            self.transactionID = transactionID
            self.productID = productID
            self.purchasedAt = purchasedAt
            self.revokedAt = revokedAt
            self.appUserID = appUserID
        }
    }

    public var orderID: String
    /// Whether Apple knows the order ID.
    public var found: Bool
    public var purchases: [Purchase]

    public init(orderID: String, found: Bool, purchases: [Purchase]) {
        self.orderID = orderID
        self.found = found
        self.purchases = purchases
    }
}
