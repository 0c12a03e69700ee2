import Foundation

/// A product's name and description in one locale.
public struct ProductLocalization: Hashable, Sendable {
    public var locale: String
    public var displayName: String?
    public var description: String?

    public init(locale: String, displayName: String? = nil, description: String? = nil) {
        self.locale = locale
        self.displayName = displayName
        self.description = description
    }
}
