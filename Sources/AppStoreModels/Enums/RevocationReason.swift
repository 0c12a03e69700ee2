import Foundation

/// Why the App Store refunded a transaction or revoked it from Family Sharing.
///
/// [RevocationReason](https://developer.apple.com/documentation/appstoreserverapi/revocationreason)
public struct RevocationReason: AppStoreEnumeration {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let other = RevocationReason(rawValue: 0)
    public static let appIssue = RevocationReason(rawValue: 1)

    public static let documented: [(value: RevocationReason, name: String)] = [
        (.other, "OTHER"),
        (.appIssue, "APP_ISSUE"),
    ]
}
