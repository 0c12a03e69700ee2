import Crypto
import EntitleCore
import EntitleStorage
import Foundation

/// An endpoint configured on the command line: `--webhook-url [BUNDLE_ID=]URL --webhook-secret S`.
/// Stored like the others, once for each app it serves, under an ID derived from the app and its URL
/// (endpoint IDs are unique across apps), updated when its secret changes, and removed when it is no
/// longer configured.
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

    /// The endpoint ID a configured URL gets in `app`.
    public static func endpointID(url: String, app: BundleID) -> String {
        idPrefix + Hex.encode(SHA256.hash(data: Data((app.rawValue + "\u{1F}" + url).utf8)).prefix(8))
    }

    /// The ID earlier versions gave a URL whatever the app: an app's endpoint stored under it keeps it
    /// (its deliveries with it).
    static func legacyEndpointID(url: String) -> String {
        idPrefix + Hex.encode(SHA256.hash(data: Data(url.utf8)).prefix(8))
    }

    /// Makes the app's stored command-line endpoints match `configured`.
    static func register(_ configured: [StaticWebhook], in store: any WebhookStore, at now: Date) async throws {
        let existing = try await store.endpoints(includingRemoved: true).filter { $0.id.hasPrefix(idPrefix) }
        var kept: Set<String> = []
        for webhook in configured {
            let legacy = legacyEndpointID(url: webhook.url)
            let id = existing.contains { $0.id == legacy } ? legacy : endpointID(url: webhook.url, app: store.app)
            kept.insert(id)
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
        for var endpoint in existing where !kept.contains(endpoint.id) && endpoint.removedAt == nil {
            endpoint.removedAt = now
            try await store.updateEndpoint(endpoint)
        }
    }
}
