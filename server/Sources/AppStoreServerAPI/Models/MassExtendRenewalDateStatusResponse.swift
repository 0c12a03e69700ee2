import Foundation

/// Get Status of Subscription Renewal Date Extensions: whether the mass extension is complete, when,
/// and how many subscriptions it extended or failed to.
public struct MassExtendRenewalDateStatusResponse: Codable, Hashable, Sendable {
    public var requestIdentifier: String?
    public var complete: Bool?
    public var completeDate: Int64?
    public var succeededCount: Int?
    public var failedCount: Int?
}
