/// An App Store Server API endpoint, as Apple's rate limits name them: each has its own limit per app,
/// in requests per second, enforced by Apple over each hour ("Identifying rate limits"). The sandbox's
/// limits are a tenth of production's.
public enum APIEndpoint: String, CaseIterable, Hashable, Sendable {
    case transactionInfo
    case appTransactionInfo
    case finishTransaction
    case transactionHistory
    case subscriptionStatuses
    case consumptionInformation
    case notificationHistory
    case extendRenewalDate
    case setAppAccountToken
    case lookUpOrderID
    case refundHistory
    case massExtendRenewalDate
    case massExtensionStatus
    case testNotification
    case testNotificationStatus

    /// Apple's published production limit, requests per second. Get Status of Subscription Renewal
    /// Date Extensions has none published: it is paced as the mass extension it asks about is.
    public var productionRate: Int {
        switch self {
        case .transactionInfo, .appTransactionInfo, .finishTransaction, .transactionHistory, .subscriptionStatuses, .consumptionInformation,
            .notificationHistory:
            50
        case .extendRenewalDate, .setAppAccountToken: 20
        case .lookUpOrderID, .refundHistory: 10
        case .massExtendRenewalDate, .massExtensionStatus, .testNotification, .testNotificationStatus: 1
        }
    }

    /// The limit in `sandbox` (a tenth of production's, at least one request a second) or production.
    public func rate(sandbox: Bool) -> Int { sandbox ? max(1, productionRate / 10) : productionRate }
}
