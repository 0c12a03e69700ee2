import Foundation

/// `POST /local-store/v1/{bundleID}/refunds`: Apple refunds one of the account's purchases (as a
/// customer's refund request granted would).
public struct LocalRefundRequest: Codable, Hashable, Sendable {
    public var account: String
    public var originalTransactionID: String

    public init(account: String, originalTransactionID: String) {
        self.account = account
        self.originalTransactionID = originalTransactionID
    }
}
