/// One rule of the entitlements file's `targeting`: the offering served when every condition it
/// gives holds. Rules are read in order; the first that matches wins (``OfferingTargeting``).
public struct TargetingRule: Hashable, Sendable, Codable {
    public var offeringID: String
    /// Storefronts (ISO 3166-1 alpha-3) the rule is for; any when `nil`.
    public var storefronts: [String]?
    /// The lowest app version the rule is for (inclusive).
    public var minimumAppVersion: String?
    /// The version the rule stops at (exclusive).
    public var belowAppVersion: String?
    /// Where the subscriber stands; any when `nil`.
    public var audiences: [Audience]?
    /// Attributes the subscriber must have, each with one of the values listed.
    public var attributes: [String: [String]]?

    public init(
        offeringID: String, storefronts: [String]? = nil, minimumAppVersion: String? = nil, belowAppVersion: String? = nil,
        audiences: [Audience]? = nil, attributes: [String: [String]]? = nil
    ) {
        self.offeringID = offeringID
        self.storefronts = storefronts
        self.minimumAppVersion = minimumAppVersion
        self.belowAppVersion = belowAppVersion
        self.audiences = audiences
        self.attributes = attributes
    }

    /// Whether every condition the rule gives holds in `context`. A condition on the storefront or the
    /// app version holds only when the app reported it.
    public func matches(_ context: TargetingContext) -> Bool {
        if let storefronts {
            guard let storefront = context.storefront?.uppercased(), storefronts.contains(storefront) else { return false }
        }
        if let minimumAppVersion {
            guard let version = context.appVersion.flatMap(AppVersion.init), let minimum = AppVersion(minimumAppVersion), version >= minimum else { return false }
        }
        if let belowAppVersion {
            guard let version = context.appVersion.flatMap(AppVersion.init), let bound = AppVersion(belowAppVersion), version < bound else { return false }
        }
        if let audiences, !audiences.contains(context.audience) { return false }
        for (name, values) in attributes ?? [:] {
            guard let value = context.attributes[name], values.contains(value) else { return false }
        }
        return true
    }
}
