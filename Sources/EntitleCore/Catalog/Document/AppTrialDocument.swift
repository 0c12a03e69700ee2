import Foundation

/// The app-managed trial policy of the entitlements file.
public struct AppTrialDocument: Decodable, Sendable, Hashable {
    /// Length of full access from first launch (`P30D`).
    public var length: String
    /// Length of the warning period after the trial (`P7D`); absent means none.
    public var grace: String?
    /// Whether the same warning period also follows the end of a paid subscription (not a refund).
    public var graceAfterSubscriptionExpiry: Bool
    /// The entitlements the trial grants; every entitlement when absent.
    public var entitlements: [String]?
    /// The entitlements the warning period grants (with warnings); the trial's when absent.
    public var graceEntitlements: [String]?
    /// What lockout still allows, on top of the free tier.
    public var lockoutAccess: AccessLevelDocument?

    enum CodingKeys: String, CodingKey {
        case length, grace, graceAfterSubscriptionExpiry, entitlements, graceEntitlements, lockoutAccess
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        length = try container.decode(String.self, forKey: .length)
        grace = try container.decodeIfPresent(String.self, forKey: .grace)
        graceAfterSubscriptionExpiry = try container.decodeIfPresent(Bool.self, forKey: .graceAfterSubscriptionExpiry) ?? false
        entitlements = try container.decodeIfPresent([String].self, forKey: .entitlements)
        graceEntitlements = try container.decodeIfPresent([String].self, forKey: .graceEntitlements)
        lockoutAccess = try container.decodeIfPresent(AccessLevelDocument.self, forKey: .lockoutAccess)
    }
}
