import Foundation

/// The `settings` object of a `.storekit` file. Xcode prefixes most of its keys with an underscore.
public struct StoreKitSettings: Decodable, Sendable, Hashable {
    public var applicationName: String?
    public var bundle: String?
    /// The three-letter App Store storefront code the file simulates (`USA`).
    public var storefront: String?
    public var locale: String?

    enum CodingKeys: String, CodingKey {
        case applicationName, bundle
        case storefront = "_storefront"
        case locale = "_locale"
    }
}
