import Foundation

/// A refund of an Advanced Commerce API item.
public struct AdvancedCommerceRefund: Codable, Hashable, Sendable {
    /// In milliunits.
    public var refundAmount: Int64?
    public var refundDate: Date?
    public var refundReason: String?
    public var refundType: String?

    public init(refundAmount: Int64? = nil, refundDate: Date? = nil, refundReason: String? = nil, refundType: String? = nil) {
        self.refundAmount = refundAmount
        self.refundDate = refundDate
        self.refundReason = refundReason
        self.refundType = refundType
    }
}
