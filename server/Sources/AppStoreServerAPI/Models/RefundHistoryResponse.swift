import Foundation

/// Get Refund History (v2): one page of the customer's refunded transactions.
public struct RefundHistoryResponse: Codable, Hashable, Sendable {
    public var signedTransactions: [String]?
    public var revision: String?
    public var hasMore: Bool?
}
