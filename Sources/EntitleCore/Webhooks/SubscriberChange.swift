import Foundation

/// One thing that happened to a subscriber, as a webhook reports it: its type and what it is about.
public struct SubscriberChange: Hashable, Sendable {
    public var type: WebhookEventType
    /// The purchase chain it is about, for purchase and subscription events.
    public var originalTransactionID: OriginalTransactionID?
    /// The product it is about (after the change, for a product change).
    public var productID: ProductID?
    /// For a product change: the product before it.
    public var previousProductID: ProductID?
    /// For an exhausted quota: the metered feature; for a paused or resumed item: its limit.
    public var feature: String?
    /// For a paused or resumed item: its ID.
    public var itemID: String?
    /// For a flagged anomaly: what was flagged.
    public var anomaly: Anomaly?

    public init(
        _ type: WebhookEventType, originalTransactionID: OriginalTransactionID? = nil, productID: ProductID? = nil, previousProductID: ProductID? = nil,
        feature: String? = nil, itemID: String? = nil
    ) {
        self.type = type
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.previousProductID = previousProductID
        self.feature = feature
        self.itemID = itemID
    }

    /// What makes the change one of its kind for a subscriber, in an event ID.
    public var subject: String {
        var parts = [type.rawValue, originalTransactionID?.rawValue ?? "", productID?.rawValue ?? "", feature ?? ""]
        if let itemID { parts.append(itemID) }
        if let anomaly { parts.append(anomaly.subject) }
        return parts.joined(separator: ":")
    }
}
