/// The entitlements file's `policies`: where an app chooses differently from Apple's defaults.
public struct PoliciesDocument: Decodable, Sendable, Hashable {
    public var billingRetryAccess: Bool?
    public var provisionalGrantHours: Int?
}
