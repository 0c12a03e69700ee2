import Foundation

/// `GET /v1/subscribers/{appUserID}/app-transaction`: the customer's app transaction as Apple signed it
/// (Get App Transaction Info), verified: when and in which version they first got the app.
public struct AppTransactionResponse: Codable, Hashable, Sendable {
    public var appTransactionID: String?
    /// When the customer first got the app (bought it, or downloaded it free).
    public var originalPurchaseDate: Date?
    /// The app version they first got: what paid-app-to-subscription migrations grandfather by.
    public var originalApplicationVersion: String?
    public var applicationVersion: String?
    public var originalPlatform: String?
    public var preorderDate: Date?
    /// `Production`, `Sandbox` or `Xcode`.
    public var environment: String?

    public init(
        appTransactionID: String?, originalPurchaseDate: Date?, originalApplicationVersion: String?, applicationVersion: String?,
        originalPlatform: String?, preorderDate: Date?, environment: String?
    ) {
        self.appTransactionID = appTransactionID
        self.originalPurchaseDate = originalPurchaseDate
        self.originalApplicationVersion = originalApplicationVersion
        self.applicationVersion = applicationVersion
        self.originalPlatform = originalPlatform
        self.preorderDate = preorderDate
        self.environment = environment
    }
}
