import Foundation

/// An external purchase token (EXTERNAL_PURCHASE_TOKEN notifications).
///
/// [externalPurchaseToken](https://developer.apple.com/documentation/appstoreservernotifications/externalpurchasetoken)
public struct ExternalPurchaseToken: Codable, Hashable, Sendable {
    /// The token's identifier; sandbox tokens start with `SANDBOX`.
    public var externalPurchaseId: String?
    public var tokenCreationDate: Date?
    public var appAppleId: Int64?
    public var bundleId: String?

    public init(externalPurchaseId: String? = nil, tokenCreationDate: Date? = nil, appAppleId: Int64? = nil, bundleId: String? = nil) {
        self.externalPurchaseId = externalPurchaseId
        self.tokenCreationDate = tokenCreationDate
        self.appAppleId = appAppleId
        self.bundleId = bundleId
    }

    /// The environment a token belongs to: Apple marks sandbox tokens by the `SANDBOX` prefix.
    public var environment: Environment {
        externalPurchaseId?.hasPrefix("SANDBOX") == true ? .sandbox : .production
    }
}
