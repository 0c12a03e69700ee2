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
    /// What the token is for (custom link tokens): `ACQUISITION`, `SERVICES`, `IN_APP`, `LINK_OUT`.
    public var tokenType: ExternalPurchaseTokenType?
    /// When the token stops being valid for reporting.
    public var tokenExpirationDate: Date?

    public init(
        externalPurchaseId: String? = nil, tokenCreationDate: Date? = nil, appAppleId: Int64? = nil, bundleId: String? = nil,
        tokenType: ExternalPurchaseTokenType? = nil, tokenExpirationDate: Date? = nil
    ) {
        self.externalPurchaseId = externalPurchaseId
        self.tokenCreationDate = tokenCreationDate
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.tokenType = tokenType
        self.tokenExpirationDate = tokenExpirationDate
    }

    /// The environment a token belongs to: Apple marks sandbox tokens by the `SANDBOX` prefix.
    public var environment: Environment {
        externalPurchaseId?.hasPrefix("SANDBOX") == true ? .sandbox : .production
    }
}
