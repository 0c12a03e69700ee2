import Foundation

/// `POST /v1/subscribers/{appUserID}/renewal-extensions`: extend a subscription's renewal date with Apple.
public struct RenewalExtensionRequest: Codable, Hashable, Sendable {
    /// 1 to 90.
    public var days: Int
    /// Apple's: 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.
    public var reasonCode: Int
    /// The subscription; every active one of the subscriber when absent.
    public var originalTransactionID: String?

    public init(days: Int, reasonCode: Int, originalTransactionID: String? = nil) {
        self.days = days
        self.reasonCode = reasonCode
        self.originalTransactionID = originalTransactionID
    }
}
