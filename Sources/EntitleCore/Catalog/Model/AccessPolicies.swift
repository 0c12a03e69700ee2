import Foundation

/// Where an app's access rules differ from Apple's (the entitlements file's `policies`, docs/entitlements.md).
/// The defaults are Apple's: nothing during billing retry, nothing the server hasn't confirmed.
public struct AccessPolicies: Hashable, Sendable {
    /// Keep a subscription's entitlements during Apple's billing retry, as during its billing grace period:
    /// allowed with a warning (seed 001: "still entitled during retry"), for at most ``billingRetryLimit``
    /// after the period's end, Apple's longest retry.
    public var billingRetryAccess: Bool
    /// Hours a purchase the device verified while the server was unreachable grants its entitlements
    /// (``ProvisionalGrant``); `nil`: none (Apple's way: only what the server confirmed).
    public var provisionalGrantHours: Int?

    public init(billingRetryAccess: Bool = false, provisionalGrantHours: Int? = nil) {
        self.billingRetryAccess = billingRetryAccess
        self.provisionalGrantHours = provisionalGrantHours
    }

    /// Apple's defaults.
    public static let apple = AccessPolicies()
    /// Apple retries a failed renewal for up to 60 days.
    public static let billingRetryLimit: TimeInterval = 60 * 86_400
    /// The longest provisional grant a catalog may declare.
    public static let longestProvisionalGrantHours = 72
}
