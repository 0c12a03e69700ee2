import Foundation

/// Your answer to Apple's Get Retention Message request: at most one of a message, a switch-plan message
/// with its product, or a promotional offer with an optional message. An empty answer leaves Apple to show
/// the app's default message, if it has one.
///
/// [RealtimeResponseBody](https://developer.apple.com/documentation/retentionmessaging/realtimeresponsebody)
public struct RealtimeResponseBody: Codable, Hashable, Sendable {
    /// A message (text, with the image uploaded with it).
    public struct Message: Codable, Hashable, Sendable {
        public var messageIdentifier: UUID?
        public init(messageIdentifier: UUID?) { self.messageIdentifier = messageIdentifier }
    }

    /// A switch-plan message: the product the customer may switch to, in the same subscription group.
    public struct AlternateProduct: Codable, Hashable, Sendable {
        public var messageIdentifier: UUID?
        public var productId: String?
        public init(messageIdentifier: UUID?, productId: String?) {
            self.messageIdentifier = messageIdentifier
            self.productId = productId
        }
    }

    /// A promotional offer, signed (the V2 signature is the compact JWS StoreKit takes), and its message.
    public struct PromotionalOffer: Codable, Hashable, Sendable {
        public var messageIdentifier: UUID?
        public var promotionalOfferSignatureV2: String?
        public init(messageIdentifier: UUID?, promotionalOfferSignatureV2: String?) {
            self.messageIdentifier = messageIdentifier
            self.promotionalOfferSignatureV2 = promotionalOfferSignatureV2
        }
    }

    public var message: Message?
    public var alternateProduct: AlternateProduct?
    public var promotionalOffer: PromotionalOffer?

    public init(message: Message? = nil, alternateProduct: AlternateProduct? = nil, promotionalOffer: PromotionalOffer? = nil) {
        self.message = message
        self.alternateProduct = alternateProduct
        self.promotionalOffer = promotionalOffer
    }
}
