import EntitleCore
import Foundation

/// `POST /v1/experiments`: a new experiment, created as a draft (docs/growth.md).
public struct CreateExperimentRequest: Codable, Hashable, Sendable {
    public var id: String
    public var name: String?
    /// The control first; 2 to 5.
    public var variants: [ExperimentVariant]
    public var audiences: [Audience]?
    public var storefronts: [String]?
    /// Days after enrolment whose revenue counts; 30 when absent.
    public var revenueWindowDays: Int?

    public init(
        id: String, name: String? = nil, variants: [ExperimentVariant], audiences: [Audience]? = nil, storefronts: [String]? = nil,
        revenueWindowDays: Int? = nil
    ) {
        self.id = id
        self.name = name
        self.variants = variants
        self.audiences = audiences
        self.storefronts = storefronts
        self.revenueWindowDays = revenueWindowDays
    }
}
