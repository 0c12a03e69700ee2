import Foundation

/// `POST /v1/webhooks/endpoints/{endpointID}/replay`: the failed deliveries to send again, or every
/// failed one of the endpoint when `deliveryIDs` is absent.
public struct WebhookReplayRequest: Codable, Hashable, Sendable {
    public var deliveryIDs: [Int64]?

    public init(deliveryIDs: [Int64]? = nil) {
        self.deliveryIDs = deliveryIDs
    }
}

/// How many deliveries a replay made pending again.
public struct WebhookReplayResponse: Codable, Hashable, Sendable {
    public var replayed: Int

    public init(replayed: Int) {
        self.replayed = replayed
    }
}
