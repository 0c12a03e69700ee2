import Foundation

/// The result of a request to extend the renewal date for all eligible subscribers
/// (RENEWAL_EXTENSION with subtype SUMMARY).
///
/// [summary](https://developer.apple.com/documentation/appstoreservernotifications/summary)
public struct Summary: Codable, Hashable, Sendable {
    public var environment: Environment?
    public var appAppleId: Int64?
    public var bundleId: String?
    public var productId: String?
    public var requestIdentifier: String?
    public var storefrontCountryCodes: [String]?
    public var succeededCount: Int64?
    public var failedCount: Int64?

    public init(
        environment: Environment? = nil, appAppleId: Int64? = nil, bundleId: String? = nil, productId: String? = nil,
        requestIdentifier: String? = nil, storefrontCountryCodes: [String]? = nil, succeededCount: Int64? = nil,
        failedCount: Int64? = nil
    ) {
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.productId = productId
        self.requestIdentifier = requestIdentifier
        self.storefrontCountryCodes = storefrontCountryCodes
        self.succeededCount = succeededCount
        self.failedCount = failedCount
    }
}
