import Foundation

/// How a subscription with a 12-month commitment renews when the commitment ends.
///
/// [RenewalCommitmentInfo](https://developer.apple.com/documentation/appstoreserverapi/renewalcommitmentinfo)
public struct RenewalCommitmentInfo: Codable, Hashable, Sendable {
    public var commitmentAutoRenewProductId: String?
    public var commitmentAutoRenewStatus: AutoRenewStatus?
    public var commitmentRenewalBillingPlanType: BillingPlanType?
    public var commitmentRenewalDate: Date?
    /// In milliunits.
    public var commitmentRenewalPrice: Int64?

    public init(
        commitmentAutoRenewProductId: String? = nil, commitmentAutoRenewStatus: AutoRenewStatus? = nil,
        commitmentRenewalBillingPlanType: BillingPlanType? = nil, commitmentRenewalDate: Date? = nil, commitmentRenewalPrice: Int64? = nil
    ) {
        self.commitmentAutoRenewProductId = commitmentAutoRenewProductId
        self.commitmentAutoRenewStatus = commitmentAutoRenewStatus
        self.commitmentRenewalBillingPlanType = commitmentRenewalBillingPlanType
        self.commitmentRenewalDate = commitmentRenewalDate
        self.commitmentRenewalPrice = commitmentRenewalPrice
    }
}
