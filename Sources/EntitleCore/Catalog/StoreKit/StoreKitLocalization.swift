import Foundation

/// A localized name and description of a product or subscription group.
public struct StoreKitLocalization: Decodable, Sendable, Hashable {
    public var locale: String
    public var displayName: String?
    public var description: String?
}
