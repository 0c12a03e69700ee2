import Foundation

/// Where an app's access rules differ from Apple's (the entitlements file's `policies`, docs/entitlements.md).
/// The defaults are Apple's: nothing during billing retry.
public struct AccessPolicies: Hashable, Sendable {
    /// Keep a subscription's entitlements during Apple's billing retry, as during its billing grace period:
    /// allowed with a warning (seed 001: "still entitled during retry"), for at most ``billingRetryLimit``
    /// after the period's end, Apple's longest retry.
    public var billingRetryAccess: Bool

    public init(billingRetryAccess: Bool = false) {
        self.billingRetryAccess = billingRetryAccess
    }

    /// Apple's defaults.
    public static let apple = AccessPolicies()
    /// Apple retries a failed renewal for up to 60 days.
    public static let billingRetryLimit: TimeInterval = 60 * 86_400
}
