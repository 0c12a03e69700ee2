import Foundation

/// Where a transaction stands in a monthly subscription with a 12-month commitment.
///
/// [TransactionCommitmentInfo](https://developer.apple.com/documentation/appstoreserverapi/transactioncommitmentinfo)
public struct TransactionCommitmentInfo: Codable, Hashable, Sendable {
    /// Which billing period of the commitment this transaction pays for (1-based).
    public var billingPeriodNumber: Int32?
    public var commitmentExpiresDate: Date?
    /// The commitment's total price in milliunits.
    public var commitmentPrice: Int64?
    public var totalBillingPeriods: Int32?

    public init(billingPeriodNumber: Int32? = nil, commitmentExpiresDate: Date? = nil, commitmentPrice: Int64? = nil, totalBillingPeriods: Int32? = nil) {
        self.billingPeriodNumber = billingPeriodNumber
        self.commitmentExpiresDate = commitmentExpiresDate
        self.commitmentPrice = commitmentPrice
        self.totalBillingPeriods = totalBillingPeriods
    }
}
