/// What targeting knows of a subscriber when an offering is served: the device's storefront and app
/// version (as the app reports them), where the subscriber stands, and their attributes.
public struct TargetingContext: Hashable, Sendable {
    /// The App Store storefront, ISO 3166-1 alpha-3 (`FRA`), as StoreKit's `Storefront.countryCode` gives it.
    public var storefront: String?
    /// The app's version (`CFBundleShortVersionString`), such as `2.4.1`.
    public var appVersion: String?
    public var audience: Audience
    public var attributes: [String: String]

    /// Whether `text` is a storefront as rules name it: three ASCII capital letters (ISO 3166-1 alpha-3).
    public static func isStorefrontCode(_ text: String) -> Bool {
        text.utf8.count == 3 && text.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
    }

    public init(storefront: String? = nil, appVersion: String? = nil, audience: Audience, attributes: [String: String] = [:]) {
        self.storefront = storefront
        self.appVersion = appVersion
        self.audience = audience
        self.attributes = attributes
    }
}
