import Foundation

/// `POST /v1/subscribers/{appUserID}/pending-purchases`: StoreKit answered a purchase with `.pending`
/// (Ask to Buy); the product awaits a parent's approval.
public struct PendingPurchaseRequest: Codable, Hashable, Sendable {
    public var productID: String

    public init(productID: String) {
        self.productID = productID
    }
}
