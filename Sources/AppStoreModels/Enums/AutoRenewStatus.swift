import Foundation

/// Whether the subscription will renew at the end of its current period.
///
/// [AutoRenewStatus](https://developer.apple.com/documentation/appstoreserverapi/autorenewstatus)
public struct AutoRenewStatus: AppStoreEnumeration {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let off = AutoRenewStatus(rawValue: 0)
    public static let on = AutoRenewStatus(rawValue: 1)

    public static let documented: [(value: AutoRenewStatus, name: String)] = [
        (.off, "OFF"),
        (.on, "ON"),
    ]
}
