import Foundation

/// `POST /v1/subscribers/{appUserID}/promotional-offers`: sign a promotional offer for this subscriber.
public struct PromotionalOfferRequest: Codable, Hashable, Sendable {
    public var productID: String
    /// The offer's identifier (its `offerID` in App Store Connect and the `.storekit` file).
    public var offerID: String

    public init(productID: String, offerID: String) {
        self.productID = productID
        self.offerID = offerID
    }
}
