import Foundation

/// The renewal state of an auto-renewable subscription, as the App Store signs it.
///
/// [JWSRenewalInfoDecodedPayload](https://developer.apple.com/documentation/appstoreserverapi/jwsrenewalinfodecodedpayload)
public struct JWSRenewalInfoDecodedPayload: Codable, Hashable, Sendable {
    public var appAccountToken: UUID?
    public var appTransactionId: String?
    /// Advanced Commerce API data, for apps that sell through it.
    public var advancedCommerceInfo: AdvancedCommerceInfo?
    /// How a 12-month commitment renews.
    public var commitmentInfo: RenewalCommitmentInfo?
    /// How the next period of a subscription with a commitment is billed.
    public var renewalBillingPlanType: BillingPlanType?
    /// The product the subscription renews to: differs from `productId` after a downgrade or
    /// crossgrade that takes effect at the next renewal.
    public var autoRenewProductId: String?
    public var autoRenewStatus: AutoRenewStatus?
    public var currency: String?
    public var eligibleWinBackOfferIds: [String]?
    public var environment: Environment?
    public var expirationIntent: ExpirationIntent?
    /// When the billing grace period ends; the customer keeps access until then.
    public var gracePeriodExpiresDate: Date?
    /// Whether the App Store is still trying to collect a failed renewal payment.
    public var isInBillingRetryPeriod: Bool?
    public var offerDiscountType: OfferDiscountType?
    public var offerIdentifier: String?
    public var offerPeriod: String?
    public var offerType: OfferType?
    public var originalTransactionId: String?
    public var priceIncreaseStatus: PriceIncreaseStatus?
    public var productId: String?
    /// The earliest start date of the subscription in a series of renewals without a gap over 60 days.
    public var recentSubscriptionStartDate: Date?
    /// When the next renewal is due.
    public var renewalDate: Date?
    /// The renewal price in milliunits of `currency`.
    public var renewalPrice: Int64?
    public var signedDate: Date?

    public init(
        appAccountToken: UUID? = nil, appTransactionId: String? = nil, autoRenewProductId: String? = nil,
        autoRenewStatus: AutoRenewStatus? = nil, currency: String? = nil,
        eligibleWinBackOfferIds: [String]? = nil, environment: Environment? = nil,
        expirationIntent: ExpirationIntent? = nil, gracePeriodExpiresDate: Date? = nil,
        isInBillingRetryPeriod: Bool? = nil, offerDiscountType: OfferDiscountType? = nil,
        offerIdentifier: String? = nil, offerPeriod: String? = nil, offerType: OfferType? = nil,
        originalTransactionId: String? = nil, priceIncreaseStatus: PriceIncreaseStatus? = nil,
        productId: String? = nil, recentSubscriptionStartDate: Date? = nil, renewalDate: Date? = nil,
        renewalPrice: Int64? = nil, signedDate: Date? = nil
    ) {
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
        self.autoRenewProductId = autoRenewProductId
        self.autoRenewStatus = autoRenewStatus
        self.currency = currency
        self.eligibleWinBackOfferIds = eligibleWinBackOfferIds
        self.environment = environment
        self.expirationIntent = expirationIntent
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.offerDiscountType = offerDiscountType
        self.offerIdentifier = offerIdentifier
        self.offerPeriod = offerPeriod
        self.offerType = offerType
        self.originalTransactionId = originalTransactionId
        self.priceIncreaseStatus = priceIncreaseStatus
        self.productId = productId
        self.recentSubscriptionStartDate = recentSubscriptionStartDate
        self.renewalDate = renewalDate
        self.renewalPrice = renewalPrice
        self.signedDate = signedDate
    }
}
