import Foundation

/// The status of an auto-renewable subscription, as the App Store Server API reports it.
///
/// [Status](https://developer.apple.com/documentation/appstoreserverapi/status)
public struct Status: AppStoreEnumeration {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let active = Status(rawValue: 1)
    public static let expired = Status(rawValue: 2)
    public static let billingRetry = Status(rawValue: 3)
    public static let billingGracePeriod = Status(rawValue: 4)
    public static let revoked = Status(rawValue: 5)

    public static let documented: [(value: Status, name: String)] = [
        (.active, "ACTIVE"),
        (.expired, "EXPIRED"),
        (.billingRetry, "BILLING_RETRY"),
        (.billingGracePeriod, "BILLING_GRACE_PERIOD"),
        (.revoked, "REVOKED"),
    ]
}
