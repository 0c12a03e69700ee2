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

    /// The configured endpoints, checked.
    func webhooks(environment: [String: String], apps: [String]) throws -> [StaticWebhook] {
        var (urls, secrets) = (urls, secrets)
        if urls.isEmpty, secrets.isEmpty {
            urls = environment["ENTITLE_WEBHOOK_URLS"]?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
            secrets = environment["ENTITLE_WEBHOOK_SECRETS"]?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        }
        guard urls.count == secrets.count else {
            throw ValidationError("each --webhook-url needs a --webhook-secret (\(urls.count) URLs, \(secrets.count) secrets)")
        }
        return try zip(urls, secrets).map { value, secret in
            var (app, url): (String?, String) = (nil, value)
            if let equals = value.firstIndex(of: "="), !value[..<equals].contains(":") {
                (app, url) = (String(value[..<equals]), String(value[value.index(after: equals)...]))
            }
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
