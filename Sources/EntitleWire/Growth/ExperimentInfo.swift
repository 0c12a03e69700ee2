import EntitleCore
import Foundation

/// An experiment on offerings as the API shows it (`/v1/experiments`): its variants, who it targets,
/// its state and when it changed.
public struct ExperimentInfo: Codable, Hashable, Sendable {
    public var id: String
    public var name: String?
    /// The first is the control.
    public var variants: [ExperimentVariant]
    public var audiences: [Audience]?
    /// ISO 3166-1 alpha-3 codes; none: every storefront.
    public var storefronts: [String]?
    /// Days after exposure a variant's revenue is counted.
    public var revenueWindowDays: Int
    public var state: ExperimentState
    /// The variant every subscriber is served once rolled out.
    public var rolledOutVariantID: String?
    public var createdAt: Date
    public var startedAt: Date?
    public var endedAt: Date?

    public init(
        id: String, name: String?, variants: [ExperimentVariant], audiences: [Audience]?, storefronts: [String]?, revenueWindowDays: Int,
        state: ExperimentState, rolledOutVariantID: String?, createdAt: Date, startedAt: Date?, endedAt: Date?
    ) {
        self.id = id
        self.name = name
        self.variants = variants
        self.audiences = audiences
        self.storefronts = storefronts
        self.revenueWindowDays = revenueWindowDays
        self.state = state
        self.rolledOutVariantID = rolledOutVariantID
        self.createdAt = createdAt
        self.startedAt = startedAt
        self.endedAt = endedAt
    }
}
