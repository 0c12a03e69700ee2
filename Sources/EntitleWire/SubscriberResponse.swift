import Foundation

/// `GET /v1/subscribers/{appUserID}`: everything an app needs to gate features and to cache safely.
public struct SubscriberResponse: Codable, Hashable, Sendable {
    public var appUserID: String
    /// The server's clock when the answer was computed: clients measure cache age against it, not
    /// against their own clock.
    public var serverTime: Date
    public var entitlements: [EntitlementInfo]
    public var subscriptions: [SubscriptionInfo]
    /// Non-consumables and non-renewing subscriptions.
    public var purchases: [SubscriptionInfo]
    public var appTrial: AppTrialInfo
    public var quotas: [QuotaInfo]
    /// Why the subscriber has no paid access, and the paywall for it; `nil` while they have it.
    public var lapse: Lapse?

    public struct Lapse: Codable, Hashable, Sendable {
        public var reason: AccessReasonCode
        public var paywall: Paywall
        public init(reason: AccessReasonCode, paywall: Paywall) {
            self.reason = reason
            self.paywall = paywall
        }
    }

    public init(
        appUserID: String, serverTime: Date, entitlements: [EntitlementInfo], subscriptions: [SubscriptionInfo],
        purchases: [SubscriptionInfo], appTrial: AppTrialInfo, quotas: [QuotaInfo], lapse: Lapse?
    ) {
        self.appUserID = appUserID
        self.serverTime = serverTime
        self.entitlements = entitlements
        self.subscriptions = subscriptions
        self.purchases = purchases
        self.appTrial = appTrial
        self.quotas = quotas
        self.lapse = lapse
    }
}
