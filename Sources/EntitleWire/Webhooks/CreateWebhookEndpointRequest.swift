import Foundation

/// `POST /v1/webhooks/endpoints`: an `http` or `https` URL, the event types it wants (all when
/// absent or empty), a description, and a signing secret (generated when absent).
public struct CreateWebhookEndpointRequest: Codable, Hashable, Sendable {
    public var url: String
    public var eventTypes: [String]?
    public var description: String?
    public var secret: String?

    public init(url: String, eventTypes: [String]? = nil, description: String? = nil, secret: String? = nil) {
        self.url = url
        self.eventTypes = eventTypes
        self.description = description
        self.secret = secret
    }
}
