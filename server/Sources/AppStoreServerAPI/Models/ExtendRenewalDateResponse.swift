import Foundation

/// Extend a Subscription Renewal Date's answer: whether it worked, and the new renewal date (Unix milliseconds).
public struct ExtendRenewalDateResponse: Codable, Hashable, Sendable {
    public var originalTransactionId: String?
    public var webOrderLineItemId: String?
    public var success: Bool?
    public var effectiveDate: Int64?
}
