import Foundation

/// Whether the customer initiated the purchase or the App Store renewed the subscription.
///
/// [TransactionReason](https://developer.apple.com/documentation/appstoreserverapi/transactionreason)
public struct TransactionReason: AppStoreEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let purchase = TransactionReason(rawValue: "PURCHASE")
    public static let renewal = TransactionReason(rawValue: "RENEWAL")

    public static let documented: [(value: TransactionReason, name: String)] = [
        (.purchase, "PURCHASE"),
        (.renewal, "RENEWAL"),
    ]
}
