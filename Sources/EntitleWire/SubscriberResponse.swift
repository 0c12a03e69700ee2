import Foundation

/// `GET /v1/subscribers/{appUserID}`: everything an app needs to gate features and to cache safely.
public struct SubscriberResponse: Codable, Hashable, Sendable {
    public var appUserID: String
    /// The UUID to pass to StoreKit as the purchase's `appAccountToken`: Apple signs it into the
    /// purchase, and the server links any purchase carrying it to this subscriber.
    public var appAccountToken: UUID?
    /// The server's clock when the answer was computed: clients measure cache age against it, not
    /// against their own clock.
    public var serverTime: Date
    public var entitlements: [EntitlementInfo]
    public var subscriptions: [SubscriptionInfo]
    /// Non-consumables and non-renewing subscriptions.
    public var purchases: [SubscriptionInfo]
    /// Ask to Buy requests awaiting a parent's answer; their entitlements show as `pending`.
    public var pendingPurchases: [PendingPurchaseInfo]
    public var appTrial: AppTrialInfo
    /// The subscriber's time zone (IANA; UTC until the app sets one) and the other attributes set.
    public var attributes: [String: String]
    /// Every declared feature's access now and after the next change (`?access=periods`), for apps
    /// that gate offline; empty unless asked for.
    public var accessPeriods: [AccessPeriod]
    public var quotas: [QuotaInfo]
    /// What the subscriber registered against the catalog's limits (paired devices), by limit then oldest
    /// first, each with whether the limit pauses it now.
    public var items: [ItemInfo]
    /// When a parent or guardian withdrew consent to the app for this (minor) customer (Apple's
    /// RESCIND_CONSENT): Apple keeps the app from launching for them, and the app's backend deletes what it
    /// kept under that consent. Purchases and entitlements are untouched.
    public var consentRescindedAt: Date?
    /// Why the subscriber has no paid access, and the paywall for it; `nil` while they have it.
    public var lapse: Lapse?
    /// The warning days after a paid subscription ended, while they run (before the lockout).
    public var expiryGrace: GraceInfo?
    /// When Apple signed the newest data about the subscriber's purchases that the server verified.
    public var lastVerifiedAt: Date?
    /// The reminders still ahead (renewals, trial and grace countdowns), earliest first: what an app
    /// schedules as local notifications.
    public var reminders: [ReminderInfo] = []
    /// The app's provisional grant policy, when it has one (`policies.provisionalGrantHours`).
    public var provisionalGrant: ProvisionalGrantInfo?
    /// What a person should look at about the subscriber (docs/anomalies.md); empty for nearly everyone.
    public var anomalies: [AnomalyInfo] = []

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
        purchases: [SubscriptionInfo], pendingPurchases: [PendingPurchaseInfo] = [], appTrial: AppTrialInfo, quotas: [QuotaInfo],
        lapse: Lapse?, appAccountToken: UUID? = nil, attributes: [String: String] = [:], accessPeriods: [AccessPeriod] = [],
        items: [ItemInfo] = []
    ) {
        self.items = items
        self.attributes = attributes
        self.accessPeriods = accessPeriods
        self.appUserID = appUserID
        self.appAccountToken = appAccountToken
        self.serverTime = serverTime
        self.entitlements = entitlements
        self.subscriptions = subscriptions
        self.purchases = purchases
        self.pendingPurchases = pendingPurchases
        self.appTrial = appTrial
        self.quotas = quotas
        self.lapse = lapse
    }
}

extension SubscriberResponse {
    /// Decodes an answer; `pendingPurchases`, `items`, `reminders` and `anomalies` may be absent (a server from before them).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        appUserID = try container.decode(String.self, forKey: .appUserID)
        serverTime = try container.decode(Date.self, forKey: .serverTime)
        entitlements = try container.decode([EntitlementInfo].self, forKey: .entitlements)
        subscriptions = try container.decode([SubscriptionInfo].self, forKey: .subscriptions)
        purchases = try container.decode([SubscriptionInfo].self, forKey: .purchases)
        pendingPurchases = try container.decodeIfPresent([PendingPurchaseInfo].self, forKey: .pendingPurchases) ?? []
        appTrial = try container.decode(AppTrialInfo.self, forKey: .appTrial)
        attributes = try container.decodeIfPresent([String: String].self, forKey: .attributes) ?? [:]
        accessPeriods = try container.decodeIfPresent([AccessPeriod].self, forKey: .accessPeriods) ?? []
        appAccountToken = try container.decodeIfPresent(UUID.self, forKey: .appAccountToken)
        quotas = try container.decode([QuotaInfo].self, forKey: .quotas)
        lapse = try container.decodeIfPresent(Lapse.self, forKey: .lapse)
        items = try container.decodeIfPresent([ItemInfo].self, forKey: .items) ?? []
        consentRescindedAt = try container.decodeIfPresent(Date.self, forKey: .consentRescindedAt)
        expiryGrace = try container.decodeIfPresent(GraceInfo.self, forKey: .expiryGrace)
        lastVerifiedAt = try container.decodeIfPresent(Date.self, forKey: .lastVerifiedAt)
        reminders = try container.decodeIfPresent([ReminderInfo].self, forKey: .reminders) ?? []
        provisionalGrant = try container.decodeIfPresent(ProvisionalGrantInfo.self, forKey: .provisionalGrant)
        anomalies = try container.decodeIfPresent([AnomalyInfo].self, forKey: .anomalies) ?? []
    }
}
