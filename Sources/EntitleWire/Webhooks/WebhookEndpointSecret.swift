import Foundation

/// An endpoint with the signing secret just made for it: the only time the API returns a secret.
public struct WebhookEndpointSecret: Codable, Hashable, Sendable {
    public var endpoint: WebhookEndpointInfo
    public var secret: String

    public init(endpoint: WebhookEndpointInfo, secret: String) {
        self.endpoint = endpoint
        self.secret = secret
    }
}
