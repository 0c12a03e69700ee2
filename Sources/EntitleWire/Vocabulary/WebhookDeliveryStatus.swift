import Foundation

/// Where a webhook delivery stands.
public struct WebhookDeliveryStatus: WireVocabulary {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let pending = WebhookDeliveryStatus(rawValue: "pending")
    public static let delivered = WebhookDeliveryStatus(rawValue: "delivered")
    public static let failed = WebhookDeliveryStatus(rawValue: "failed")

    public static let known: [WebhookDeliveryStatus] = [.pending, .delivered, .failed]
}
