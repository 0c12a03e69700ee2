import Foundation

/// `POST /v1/imports/jobs`: start importing a file of customers on the server, which carries it on in the
/// background (surviving restarts) while the caller polls `GET /v1/imports/jobs/{id}` (docs/import.md).
public struct ImportJobRequest: Codable, Hashable, Sendable {
    /// `csv` (app_user_id and transaction_id, original_transaction_id or receipt) or `revenuecat`
    /// (RevenueCat's Transactions export).
    public var format: String
    /// The file's text.
    public var file: String
    /// Whether imported history sends webhooks, as if it had just happened (`false` by default: it is the
    /// subscribers' baseline).
    public var webhooks: Bool?
    /// A new job even when one for the same file is running (`false`: the request joins it).
    public var restart: Bool?

    public init(format: String, file: String, webhooks: Bool? = nil, restart: Bool? = nil) {
        self.format = format
        self.file = file
        self.webhooks = webhooks
        self.restart = restart
    }
}
