import Foundation

/// Get Transaction Info: one signed transaction.
public struct TransactionInfoResponse: Codable, Hashable, Sendable {
    public var signedTransactionInfo: String?

    public init(signedTransactionInfo: String?) {
        self.signedTransactionInfo = signedTransactionInfo
    }
}
