import Foundation

/// `POST /v1/webhooks/endpoints/{endpointID}/secrets`: the new secret, or none to have one generated.
public struct RotateWebhookSecretRequest: Codable, Hashable, Sendable {
    public var secret: String?

    public init(secret: String? = nil) {
        self.secret = secret
    }
}
