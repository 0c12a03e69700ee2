import Foundation

/// A declared metered quota of the catalog.
public struct QuotaDefinition: Hashable, Sendable {
    public var name: String
    public var description: String?
    public var window: QuotaWindow

    public init(name: String, description: String? = nil, window: QuotaWindow) {
        self.name = name
        self.description = description
        self.window = window
    }
}
