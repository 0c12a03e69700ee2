import Foundation

/// How the App Store revoked a transaction: a full or prorated refund, or removal from Family Sharing.
///
/// [RevocationType](https://developer.apple.com/documentation/appstoreserverapi/revocationtype)
public struct RevocationType: AppStoreEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let refundFull = RevocationType(rawValue: "REFUND_FULL")
    public static let refundProrated = RevocationType(rawValue: "REFUND_PRORATED")
    public static let familyRevoke = RevocationType(rawValue: "FAMILY_REVOKE")

    public static let documented: [(value: RevocationType, name: String)] = [
        (.refundFull, "REFUND_FULL"),
        (.refundProrated, "REFUND_PRORATED"),
        (.familyRevoke, "FAMILY_REVOKE"),
    ]
}
