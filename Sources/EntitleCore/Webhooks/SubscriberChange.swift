import Foundation

/// One thing that happened to a subscriber, as a webhook reports it: its type and what it is about.
public struct SubscriberChange: Hashable, Sendable {
    public var type: WebhookEventType
    /// The purchase chain it is about, for purchase and subscription events.
    public var originalTransactionID: String?
    /// The product it is about (after the change, for a product change).
    public var productID: String?
    /// For a product change: the product before it.
    public var previousProductID: String?
    /// For an exhausted quota: the metered feature.
    public var feature: String?

    public init(
        _ type: WebhookEventType, originalTransactionID: String? = nil, productID: String? = nil, previousProductID: String? = nil,
        feature: String? = nil
    ) {
        self.type = type
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.previousProductID = previousProductID
        self.feature = feature
    }

    /// What makes the change one of its kind for a subscriber, in an event ID.
    public var subject: String {
        [type.rawValue, originalTransactionID ?? "", productID ?? "", feature ?? ""].joined(separator: ":")
    }
}
