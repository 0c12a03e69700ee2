import Foundation

/// A signed promotional offer a purchase from the local App Store redeems: what StoreKit's
/// `promotionalOffer(offerID:keyID:nonce:signature:timestamp:)` purchase option carries. The store checks
/// the signature with the key's public half, as Apple does.
public struct LocalPromotionalOffer: Codable, Hashable, Sendable {
    public var offerID: String
    public var keyID: String
    public var nonce: UUID
    /// Unix milliseconds.
    public var timestamp: Int64
    /// Base64 of the DER ECDSA signature.
    public var signature: String

    public init(offerID: String, keyID: String, nonce: UUID, timestamp: Int64, signature: String) {
        self.offerID = offerID
        self.keyID = keyID
        self.nonce = nonce
        self.timestamp = timestamp
        self.signature = signature
    }
}
