import Foundation

/// A signed promotional offer, in both forms StoreKit takes: the signature fields
/// (`Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`) and the compact
/// JWS (`promotionalOffer(_:compactJWS:)`). The purchase must carry ``appAccountToken``.
public struct PromotionalOfferResponse: Codable, Hashable, Sendable {
    public var productID: String
    public var offerID: String
    public var keyID: String
    public var nonce: UUID
    /// Unix milliseconds.
    public var timestamp: Int64
    /// Base64 of the DER ECDSA signature.
    public var signature: String
    /// The appAccountToken the signature covers; the purchase sets the same.
    public var appAccountToken: UUID
    public var compactJWS: String

    public init(
        productID: String, offerID: String, keyID: String, nonce: UUID, timestamp: Int64, signature: String, appAccountToken: UUID, compactJWS: String
    ) {
        self.productID = productID
        self.offerID = offerID
        self.keyID = keyID
        self.nonce = nonce
        self.timestamp = timestamp
        self.signature = signature
        self.appAccountToken = appAccountToken
        self.compactJWS = compactJWS
    }
}
