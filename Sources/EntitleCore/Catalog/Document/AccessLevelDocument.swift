import Foundation

/// The access one state grants: features (names, or `"*"` for every declared feature), limits and quotas.
public struct AccessLevelDocument: Decodable, Sendable, Hashable {
    public var features: [String]
    public var limits: [String: AllowanceDocument]
    public var quotas: [String: AllowanceDocument]

    enum CodingKeys: String, CodingKey { case features, limits, quotas }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        features = try container.decodeIfPresent([String].self, forKey: .features) ?? []
        limits = try container.decodeIfPresent([String: AllowanceDocument].self, forKey: .limits) ?? [:]
        quotas = try container.decodeIfPresent([String: AllowanceDocument].self, forKey: .quotas) ?? [:]
    }
}
