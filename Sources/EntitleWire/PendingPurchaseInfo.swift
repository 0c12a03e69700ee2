import Foundation

/// An Ask to Buy request awaiting a parent's answer: the product asked for, when, and when the
/// request lapses unanswered (24 hours after the latest request).
public struct PendingPurchaseInfo: Codable, Hashable, Sendable {
    public var productID: String
    public var requestedAt: Date
    public var expiresAt: Date

    public init(productID: String, requestedAt: Date, expiresAt: Date) {
        self.productID = productID
        self.requestedAt = requestedAt
        self.expiresAt = expiresAt
    }
}
