/// A targeting rule in the entitlements file (`targeting`, in order): the offering, and the
/// conditions that must all hold for it (``TargetingRule``).
public struct TargetingRuleDocument: Decodable, Sendable, Hashable {
    public var offering: String
    public var storefronts: [String]?
    public var minimumAppVersion: String?
    public var belowAppVersion: String?
    public var audiences: [String]?
    public var attributes: [String: [String]]?
}
