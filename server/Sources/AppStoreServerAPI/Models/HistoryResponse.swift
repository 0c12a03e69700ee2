import Foundation

/// Get Transaction History (v2): one page of a customer's signed transactions.
public struct HistoryResponse: Codable, Hashable, Sendable {
    /// Where the next page starts.
    public var revision: String?
    public var hasMore: Bool?
    public var bundleId: String?
    public var appAppleId: Int64?
    public var environment: String?
    public var signedTransactions: [String]?

    public init(revision: String?, hasMore: Bool?, bundleId: String?, appAppleId: Int64?, environment: String?, signedTransactions: [String]?) {
        self.revision = revision
        self.hasMore = hasMore
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.signedTransactions = signedTransactions
    }
}
