import Crypto
import EntitleCore
import EntitleStorage
import Foundation

/// An endpoint configured on the command line: `--webhook-url [BUNDLE_ID=]URL --webhook-secret S`.
/// Stored like the others under an ID derived from its URL, updated when its secret changes, and
/// removed when it is no longer configured.
public struct StaticWebhook: Hashable, Sendable {
    /// The app it is for; `nil`: every app the server serves.
    public var app: BundleID?
    public var url: String
    public var secret: String

    public init(app: BundleID?, url: String, secret: String) {
        self.app = app
        self.url = url
        self.secret = secret
    }

    static let idPrefix = "we_static_"

    /// The endpoint ID a configured URL gets.
    public static func endpointID(url: String) -> String {
        idPrefix + Hex.encode(SHA256.hash(data: Data(url.utf8)).prefix(8))
    }

    /// Makes the app's stored command-line endpoints match `configured`.
    static func register(_ configured: [StaticWebhook], in store: any WebhookStore, at now: Date) async throws {
        let existing = try await store.endpoints(includingRemoved: true).filter { $0.id.hasPrefix(idPrefix) }
        for webhook in configured {
            let id = endpointID(url: webhook.url)
            if var endpoint = existing.first(where: { $0.id == id }) {
                if endpoint.secrets.first != webhook.secret || endpoint.removedAt != nil {
                    endpoint.secrets = [webhook.secret]
                    endpoint.removedAt = nil
                    try await store.updateEndpoint(endpoint)
                }
            } else {
                try await store.addEndpoint(WebhookEndpoint(
                    id: id, app: store.app, url: webhook.url, eventTypes: [], secrets: [webhook.secret], description: "--webhook-url", createdAt: now))
            }
        }
        let kept = Set(configured.map { endpointID(url: $0.url) })
        for var endpoint in existing where !kept.contains(endpoint.id) && endpoint.removedAt == nil {
            endpoint.removedAt = now
            try await store.updateEndpoint(endpoint)
        }
    }
}
