import Foundation

/// Look Up Order ID: `status` 0 (valid: the order's signed transactions) or 1 (invalid: no such order).
public struct OrderLookupResponse: Codable, Hashable, Sendable {
    public var status: Int?
    public var signedTransactions: [String]?
}
