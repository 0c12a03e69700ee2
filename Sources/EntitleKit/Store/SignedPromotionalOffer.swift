import EntitleWire
import Foundation

/// A promotional offer the server signed for one user, in both forms StoreKit takes: the signature fields
/// (`Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`) and the compact
/// JWS (`promotionalOffer(_:compactJWS:)`). The purchase carries the appAccountToken the signature covers.
public struct SignedPromotionalOffer: Sendable, Hashable {
    public var offerID: String
    public var keyID: String
    public var nonce: UUID
    /// Unix milliseconds.
    public var timestamp: Int64
    /// Base64 of the DER ECDSA signature.
    public var signature: String
    /// The compact JWS form (empty when the server has no in-app purchase key to sign it with).
    public var compactJWS: String

    public init(offerID: String, keyID: String, nonce: UUID, timestamp: Int64, signature: String, compactJWS: String) {
        self.offerID = offerID
        self.keyID = keyID
        self.nonce = nonce
        self.timestamp = timestamp
        self.signature = signature
        self.compactJWS = compactJWS
    }

    init(_ wire: PromotionalOfferResponse) {
        self.init(
            offerID: wire.offerID, keyID: wire.keyID, nonce: wire.nonce, timestamp: wire.timestamp, signature: wire.signature,
            compactJWS: wire.compactJWS)
    }
}
