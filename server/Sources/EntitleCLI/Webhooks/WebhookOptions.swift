import ArgumentParser
import EntitleCore
import EntitleServer
import Foundation

/// `--webhook-url [BUNDLE_ID=]URL --webhook-secret SECRET`, repeatable in pairs (or
/// `ENTITLE_WEBHOOK_URLS` and `ENTITLE_WEBHOOK_SECRETS`, comma-separated): endpoints configured with
/// the server, for one app or (without `BUNDLE_ID=`) every app it serves.
struct WebhookOptions: ParsableArguments {
    @Option(name: .customLong("webhook-url"), help: "A webhook endpoint, [BUNDLE_ID=]URL; repeatable, each with a --webhook-secret.")
    var urls: [String] = []
    @Option(name: .customLong("webhook-secret"), help: "The signing secret of the --webhook-url at the same position (16 to 200 printable characters).")
    var secrets: [String] = []
    @Option(name: .customLong("forward-url"), help: "Where every App Store notification is forwarded as Apple sent it (the provider you are leaving), [BUNDLE_ID=]URL; repeatable.")
    var forwardURLs: [String] = []
    @Option(name: .customLong("webhook-lease"), help: "Seconds an instance publishing or sending webhooks holds that work without renewing it: after a crash another instance, or the restarted one, takes over within it (default 15; 2 to 300).")
    var lease: Int?

    /// `--webhook-lease SECONDS` (or `ENTITLE_WEBHOOK_LEASE`), checked.
    func leaseDuration(environment: [String: String]) throws -> TimeInterval {
        let text = lease.map(String.init) ?? environment["ENTITLE_WEBHOOK_LEASE"]
        guard let text else { return WebhookService.defaultLease }
        guard let seconds = Int(text), WebhookService.leaseRange.contains(seconds) else {
            throw ValidationError("--webhook-lease \(text) is not a number of seconds from \(WebhookService.leaseRange.lowerBound) to \(WebhookService.leaseRange.upperBound)")
        }
        return TimeInterval(seconds)
    }

    /// The configured endpoints, checked: webhooks, then forwarding endpoints.
    func webhooks(environment: [String: String], apps: [String]) throws -> [StaticWebhook] {
        try signedWebhooks(environment: environment, apps: apps) + forwards(environment: environment, apps: apps)
    }

    /// `--forward-url [BUNDLE_ID=]URL` (or `ENTITLE_FORWARD_URLS`, comma separated), checked.
    func forwards(environment: [String: String], apps: [String]) throws -> [StaticWebhook] {
        let values = forwardURLs.isEmpty
            ? environment["ENTITLE_FORWARD_URLS"]?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? [] : forwardURLs
        return try values.map { value in
            let (app, url) = Self.split(value)
            if let app, !apps.contains(app) { throw ValidationError("--forward-url names \(app), which is not an app this server serves") }
            do {
                try WebhookService.validateWebhookURL(url)
            } catch {
                throw ValidationError("--forward-url \(url): \((error as? ServiceError)?.message ?? "\(error)")")
            }
            return StaticWebhook.forward(app: app.map { BundleID($0) }, url: url)
        }
    }

    /// `BUNDLE_ID=URL` split at its `=` (a URL's own `=` comes after its `:`), or the URL alone.
    static func split(_ value: String) -> (app: String?, url: String) {
        guard let equals = value.firstIndex(of: "="), !value[..<equals].contains(":") else { return (nil, value) }
        return (String(value[..<equals]), String(value[value.index(after: equals)...]))
    }

    private func signedWebhooks(environment: [String: String], apps: [String]) throws -> [StaticWebhook] {
        var (urls, secrets) = (urls, secrets)
        if urls.isEmpty, secrets.isEmpty {
            urls = environment["ENTITLE_WEBHOOK_URLS"]?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
            secrets = environment["ENTITLE_WEBHOOK_SECRETS"]?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        }
        guard urls.count == secrets.count else {
            throw ValidationError("each --webhook-url needs a --webhook-secret (\(urls.count) URLs, \(secrets.count) secrets)")
        }
        return try zip(urls, secrets).map { value, secret in
            let (app, url) = Self.split(value)
            if let app, !apps.contains(app) { throw ValidationError("--webhook-url names \(app), which is not an app this server serves") }
            do {
                try WebhookService.validateWebhookURL(url)
                _ = try WebhookService.validateWebhookSecret(secret)
            } catch {
                throw ValidationError("--webhook-url \(url): \((error as? ServiceError)?.message ?? "\(error)")")
            }
            return StaticWebhook(app: app.map { BundleID($0) }, url: url, secret: secret)
        }
    }
}
