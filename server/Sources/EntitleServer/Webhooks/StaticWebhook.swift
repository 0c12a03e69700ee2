import Crypto
import EntitleCore
import EntitleStorage
import Foundation

/// An endpoint configured on the command line: `--webhook-url [BUNDLE_ID=]URL --webhook-secret S`, or
/// `--forward-url [BUNDLE_ID=]URL` (Apple's notifications forwarded as they came, no secret). Stored like
/// the others, once for each app it serves, under an ID derived from the app and its URL (endpoint IDs
/// are unique across apps), updated when its secret changes, and removed when it is no longer configured.
public struct StaticWebhook: Hashable, Sendable {
    /// The app it is for; `nil`: every app the server serves.
    public var app: BundleID?
    public var url: String
    /// Empty for a forwarding endpoint.
    public var secret: String
    /// Whether it receives Apple's notifications as they came (``WebhookEndpoint/forwardedNotification``)
    /// rather than Entitle's events.
    public var forwardsNotifications: Bool

    public init(app: BundleID?, url: String, secret: String) {
        self.app = app
        self.url = url
        self.secret = secret
        self.forwardsNotifications = false
    }

    /// A `--forward-url`: every notification Entitle accepts, sent on byte for byte.
    public static func forward(app: BundleID?, url: String) -> StaticWebhook {
        var forward = StaticWebhook(app: app, url: url, secret: "")
        forward.forwardsNotifications = true
        return forward
    }

    static let idPrefix = "we_static_"
    static let forwardPrefix = "we_forward_"

    /// The endpoint ID a configured URL gets in `app`.
    public static func endpointID(url: String, app: BundleID, forwards: Bool = false) -> String {
        (forwards ? forwardPrefix : idPrefix) + Hex.encode(SHA256.hash(data: Data((app.rawValue + "\u{1F}" + url).utf8)).prefix(8))
    }

    /// The ID earlier versions gave a URL whatever the app: an app's endpoint stored under it keeps it
    /// (its deliveries with it).
    static func legacyEndpointID(url: String) -> String {
        idPrefix + Hex.encode(SHA256.hash(data: Data(url.utf8)).prefix(8))
    }

    /// Makes the app's stored command-line endpoints match `configured`.
    static func register(_ configured: [StaticWebhook], in store: any WebhookStore, at now: Date) async throws {
        let existing = try await store.endpoints(includingRemoved: true).filter { $0.id.hasPrefix(idPrefix) || $0.id.hasPrefix(forwardPrefix) }
        var kept: Set<String> = []
        for webhook in configured {
            let legacy = legacyEndpointID(url: webhook.url)
            let id = !webhook.forwardsNotifications && existing.contains { $0.id == legacy }
                ? legacy : endpointID(url: webhook.url, app: store.app, forwards: webhook.forwardsNotifications)
            kept.insert(id)
            let secrets = webhook.forwardsNotifications ? [] : [webhook.secret]
            if var endpoint = existing.first(where: { $0.id == id }) {
                if endpoint.secrets.first != secrets.first || endpoint.removedAt != nil {
                    endpoint.secrets = secrets
                    endpoint.removedAt = nil
                    try await store.updateEndpoint(endpoint)
                }
            } else {
                try await store.addEndpoint(WebhookEndpoint(
                    id: id, app: store.app, url: webhook.url, eventTypes: webhook.forwardsNotifications ? [WebhookEndpoint.forwardedNotification] : [],
                    secrets: secrets, description: webhook.forwardsNotifications ? "--forward-url" : "--webhook-url", createdAt: now))
            }
        }
        for var endpoint in existing where !kept.contains(endpoint.id) && endpoint.removedAt == nil {
            endpoint.removedAt = now
            try await store.updateEndpoint(endpoint)
        }
    }
}
