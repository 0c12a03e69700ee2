import Foundation

/// The access one state grants: the features it allows and its limits and quotas.
///
/// A subscriber's access is the union of the levels of every state they are in (each active
/// entitlement, the app-managed trial, the free tier): a feature is allowed if any level allows it, and
/// a limit or quota is the largest any level gives. A limit or quota a level doesn't mention is zero.
public struct AccessLevel: Hashable, Sendable, Codable {
    public var features: Set<String>
    public var limits: [String: Allowance]
    public var quotas: [String: Allowance]

    public init(features: Set<String> = [], limits: [String: Allowance] = [:], quotas: [String: Allowance] = [:]) {
        self.features = features
        self.limits = limits
        self.quotas = quotas
    }

    public static let nothing = AccessLevel()

    /// The union of two levels: features of either, the larger of each limit and quota.
    public func union(_ other: AccessLevel) -> AccessLevel {
        AccessLevel(
            features: features.union(other.features),
            limits: limits.merging(other.limits, uniquingKeysWith: max),
            quotas: quotas.merging(other.quotas, uniquingKeysWith: max))
    }

    /// Whether this level gives everything `other` gives.
    public func covers(_ other: AccessLevel) -> Bool {
        other.features.isSubset(of: features)
            && other.limits.allSatisfy { key, value in (limits[key] ?? .limited(0)) >= value }
            && other.quotas.allSatisfy { key, value in (quotas[key] ?? .limited(0)) >= value }
    }

    public func limit(_ name: String) -> Allowance { limits[name] ?? .limited(0) }
    public func quota(_ name: String) -> Allowance { quotas[name] ?? .limited(0) }
}

extension AccessLevel {
    private enum CodingKeys: String, CodingKey {
        case features, limits, quotas
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            features: Set(try container.decodeIfPresent([String].self, forKey: .features) ?? []),
            limits: try container.decodeIfPresent([String: Allowance].self, forKey: .limits) ?? [:],
            quotas: try container.decodeIfPresent([String: Allowance].self, forKey: .quotas) ?? [:])
    }

    /// Features sorted, so the same level is the same JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(features.sorted(), forKey: .features)
        try container.encode(limits, forKey: .limits)
        try container.encode(quotas, forKey: .quotas)
    }
}
