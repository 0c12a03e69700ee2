import Foundation

/// A display name and description an Advanced Commerce API app gives a purchase or item.
public struct AdvancedCommerceDescriptors: Codable, Hashable, Sendable {
    public var description: String?
    public var displayName: String?

    public init(description: String? = nil, displayName: String? = nil) {
        self.description = description
        self.displayName = displayName
    }
}
