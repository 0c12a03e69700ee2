import EntitleCore
import EntitleWire
import Foundation

/// What Entitle knows of the app user: their entitlements, subscriptions and purchases, the app's trial,
/// quotas, registered items and attributes, as the server signed them; where the answer came from and how
/// old it is.
public struct CustomerInfo: Sendable, Hashable {
    public enum Source: String, Sendable, Hashable {
        /// Just fetched from the server.
        case server
        /// From the signed cache (the server could not be asked, or the policy allowed it).
        case cache
    }

    /// An Ask to Buy request awaiting a parent's answer; its entitlements show as `pending`.
    public struct PendingPurchase: Sendable, Hashable {
        public var productID: String
        public var requestedAt: Date
        /// When the request lapses unanswered (24 hours after the latest request).
        public var expiresAt: Date
    }

    /// Why the user has no paid access, and the paywall for it.
    public struct Lapse: Sendable, Hashable {
        public var reason: Access.Reason
        public var paywall: Paywall
    }

    /// The server's answer as it signed it: what the cache keeps, and what offline access is decided on.
    let response: SubscriberResponse
    public var source: Source
    /// How old the answer is on the device clock.
    public var age: TimeInterval
    /// Queued uses the server refused when they were sent, since the last update (the answer counts
    /// only what the server counted).
    public var refusedUses: [RefusedUse] = []

    public let appUserID: String
    /// The UUID StoreKit signs into the user's purchases (`appAccountToken`), linking them to this user.
    public let appAccountToken: UUID?
    /// The server's clock when it answered.
    public let serverTime: Date
    /// Every entitlement the catalog declares, active or not.
    public let entitlements: [Entitlement]
    /// Auto-renewable subscriptions, current and past.
    public let subscriptions: [Subscription]
    /// One-time purchases: non-consumables (lifetime unlocks) and non-renewing subscriptions.
    public let purchases: [Subscription]
    public let pendingPurchases: [PendingPurchase]
    public let appTrial: AppTrial
    /// The metered quotas and the user's use of each in the current window.
    public let quotas: [Quota]
    /// What the user registered against the catalog's limits, by limit then oldest first.
    public let items: [Item]
    /// The attributes set (``Entitle/setAttributes(_:)``), the time zone among them (`timeZone`).
    public let attributes: [String: String]
    /// Why the user has no paid access and the paywall to show; `nil` while they have it.
    public let lapse: Lapse?
    /// When a parent withdrew consent to the app for this (minor) user: Apple keeps the app from
    /// launching for them; the app deletes what it kept under that consent.
    public let consentRescindedAt: Date?
    /// The reminders still ahead when the server answered, earliest first: renewals, trial endings, and
    /// each warning day before a lockout — for local notifications (``Reminder``).
    public let reminders: [EntitleKit.Reminder]
    /// The warning days after a paid subscription ended, while they run: when they began and when the
    /// app locks out.
    public let expiryGrace: DateInterval?
    /// When Apple signed the newest data about the user's purchases that the server verified.
    public let lastVerifiedAt: Date?
    /// Entitlements a purchase grants before the server has confirmed it (the app's
    /// `policies.provisionalGrantHours`, when the server couldn't be reached right after the purchase):
    /// active until `until`, or until the server's answer grants them or its refusal withdraws them.
    public internal(set) var provisionalEntitlements: [ProvisionalEntitlement] = []

    /// An entitlement granted provisionally by a purchase the device verified.
    public struct ProvisionalEntitlement: Sendable, Hashable {
        public var id: String
        public var productID: String
        public var until: Date
    }

    init(response: SubscriberResponse, source: Source, age: TimeInterval) {
        self.response = response
        self.source = source
        self.age = age
        appUserID = response.appUserID
        appAccountToken = response.appAccountToken
        serverTime = response.serverTime
        entitlements = response.entitlements.map(Entitlement.init)
        subscriptions = response.subscriptions.map(Subscription.init)
        purchases = response.purchases.map(Subscription.init)
        pendingPurchases = response.pendingPurchases.map {
            PendingPurchase(productID: $0.productID, requestedAt: $0.requestedAt, expiresAt: $0.expiresAt)
        }
        appTrial = AppTrial(response.appTrial)
        quotas = response.quotas.map(Quota.init)
        items = response.items.map(Item.init)
        attributes = response.attributes
        lapse = response.lapse.map { Lapse(reason: Access.Reason($0.reason), paywall: Paywall($0.paywall)) }
        consentRescindedAt = response.consentRescindedAt
        reminders = response.reminders.map(EntitleKit.Reminder.init)
        expiryGrace = response.expiryGrace.map { DateInterval(start: $0.startedAt, end: max($0.startedAt, $0.lockoutAt)) }
        lastVerifiedAt = response.lastVerifiedAt
    }

    /// Whole days left at `now` before the warning days after a paid subscription end in lockout; `nil`
    /// outside them. Counted as the server counts (``AppTrial/daysLeft(at:)``).
    public func expiryGraceDaysLeft(at now: Date) -> Int? {
        expiryGrace.map { DaysLeft.until($0.end, from: now) }
    }

    /// The entitlements active now: on a cached answer, only those whose own expiry has not passed.
    public func activeEntitlements(at now: Date) -> [Entitlement] {
        entitlements.filter { $0.isActive && ($0.expiresAt.map { now < $0 } ?? true) }
    }

    /// Whether the entitlement `id` is active at `now`: from the server's answer, or provisionally from a
    /// purchase it hasn't confirmed yet (``provisionalEntitlements``).
    public func isActive(_ id: String, at now: Date) -> Bool {
        activeEntitlements(at: now).contains { $0.id == id } || provisionalEntitlements.contains { $0.id == id && now < $0.until }
    }

    /// Where the user manages their subscriptions: Apple's page, when they have an App Store
    /// subscription that renews or could be resubscribed; what to open where StoreKit's sheet can't be
    /// shown (``Entitle/showManageSubscriptions(in:)``). `nil` when they have none.
    public var managementURL: URL? { subscriptions.isEmpty ? nil : Entitle.manageSubscriptionsURL }

    /// The quota of `feature`, if the catalog meters it.
    public func quota(_ feature: String) -> Quota? { quotas.first { $0.feature == feature } }

    /// The gate the server signed for the access period that contains `now`, if the answer carries one.
    func gate(at now: Date) -> AccessGate? {
        response.accessPeriods.first { $0.from <= now && ($0.until.map { now < $0 } ?? true) }?.gate
    }
}
