/// One rule of the entitlements file's `retentionMessages`: which retention message Apple shows a
/// customer about to cancel (Retention Messaging API). Read in order; the first that applies wins.
public struct RetentionMessageDocument: Decodable, Sendable, Hashable {
    /// The subscriptions it applies to (the one being cancelled); every one when absent.
    public var products: [String]?
    /// The device locales it applies to, by language or language and region (`en`, `en-GB`); every one when absent.
    public var locales: [String]?
    /// The message's identifier, as uploaded to Apple (a UUID).
    public var message: String?
    /// Offer a switch to this product (same subscription group) with the message.
    public var alternateProduct: String?
    /// Offer this promotional offer of the product being cancelled, signed with the app's in-app purchase key.
    public var promotionalOffer: String?
}
