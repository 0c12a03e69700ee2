import AppStoreModels
import Foundation

/// Everything known about one subscriber (an app user, or a household): their purchase chains,
/// app-managed trial, operator grants and overrides, and metered usage.
public struct SubscriberFacts: Hashable, Sendable, Codable {
    /// The version of what a projection keeps: raised when it keeps a fact earlier ones dropped, so
    /// stored projections are rebuilt from the ledger once. 2: each chain's first introductory offer.
    public static let definitionsVersion = 2

    public var appUserID: AppUserID
    /// Purchase chains by original transaction id.
    public var purchases: [OriginalTransactionID: SubscriptionFacts]
    /// The first launch that started the app-managed trial.
    public var appTrialStartedAt: Date?
    /// Days support added to the app-managed trial, by extension ID.
    public var appTrialExtensions: [String: AppTrialExtension] = [:]
    /// Other subscribers who submitted a purchase as theirs, by original transaction ID, then app user ID,
    /// each with when they first did: their claims on this subscriber and those that came with purchases
    /// moved here. Never dropped (a union, so the same events in any order give the same facts);
    /// ``AnomalyDetector`` reads those of the purchases the subscriber holds.
    public var purchaseClaims: [String: [String: Date]] = [:]
    /// The days those extensions add together, at most ``AppTrialExtension/longest``.
    public var appTrialExtraDays: Int {
        min(AppTrialExtension.longest, appTrialExtensions.values.reduce(0) { $0 + min(max($1.days, 0), AppTrialExtension.longest) })
    }
    public var grants: [EntitlementGrant]
    public var overrides: [AccessOverride]
    public var usage: [UsageRecord]
    /// The subscriber's time zone, for calendar quota windows.
    public var timeZone: TimeZone
    /// Revocations of grants and removals of overrides seen before the grant or override itself, so
    /// events applied in any order give the same facts.
    public var grantRevocations: [String: Date] = [:]
    /// Household memberships: when the subscriber joined each household, and left it (if they did).
    public var households: [AppUserID: Membership] = [:]

    /// A membership of a household.
    public struct Membership: Hashable, Sendable, Codable {
        public var joinedAt: Date
        public var leftAt: Date?
        public init(joinedAt: Date, leftAt: Date? = nil) {
            self.joinedAt = joinedAt
            self.leftAt = leftAt
        }
    }

    /// The households the subscriber belongs to at `now`, sorted.
    public func householdIDs(at now: Date) -> [AppUserID] {
        households.filter { $0.value.joinedAt <= now && ($0.value.leftAt.map { now < $0 } ?? true) }.keys.sorted()
    }
    public var overrideRemovals: [String: Date] = [:]
    /// Attributes the app set (``SubscriberAttribute``): email, display name, locale; each the value
    /// set last (a cleared one is `nil`), when.
    public var attributeValues: [String: StampedAttribute] = [:]

    /// An attribute's last value and when it was set. The later one wins; at the same instant the
    /// larger value, so any order of the same events gives the same attributes.
    public struct StampedAttribute: Hashable, Sendable, Codable {
        public var value: String?
        public var at: Date
        public init(value: String?, at: Date) {
            self.value = value
            self.at = at
        }
    }

    /// The attributes set and not cleared.
    public var attributes: [String: String] { attributeValues.compactMapValues(\.value) }

    /// Records that `key` was set to `value` (`nil`: cleared) at `at`.
    public mutating func recordAttribute(_ key: String, _ value: String?, at: Date) {
        if let existing = attributeValues[key], (existing.at, existing.value ?? "") >= (at, value ?? "") { return }
        attributeValues[key] = StampedAttribute(value: value, at: at)
    }
    /// The experiments the subscriber is enrolled in, by experiment ID: the earliest enrolment of each.
    public var experiments: [String: ExperimentEnrolment] = [:]

    /// Records an enrolment; of two in one experiment the earlier stands (``ExperimentEnrolment/precedes(_:)``).
    public mutating func recordEnrolment(_ enrolment: ExperimentEnrolment) {
        if let existing = experiments[enrolment.experimentID], !enrolment.precedes(existing) { return }
        experiments[enrolment.experimentID] = enrolment
    }

    /// What the subscriber registered against numeric limits (paired devices), by limit, then item ID;
    /// removed items are kept, so a late registration older than the removal doesn't bring them back.
    public var items: [String: [String: RegisteredItem]] = [:]

    /// When a parent or guardian withdrew consent to the app for this (minor) customer: Apple's RESCIND_CONSENT,
    /// the earliest. Apple then keeps the app from launching for them; the app's backend deletes what it
    /// kept under that consent. Purchases and access are untouched: Apple revokes nothing.
    public var consentRescindedAt: Date?

    /// When the customer was deleted (``SubscriberErasure``): the facts are a pseudonym's, kept for the
    /// financial record. The earliest stands.
    public var erasedAt: Date?

    /// Records a RESCIND_CONSENT signed at `instant`; the earliest stands.
    public mutating func recordConsentRescinded(at instant: Date) {
        consentRescindedAt = min(consentRescindedAt ?? instant, instant)
    }

    /// Records a registration, rename or removal.
    public mutating func recordItemChange(_ change: ItemChange) {
        items[change.limit, default: [:]][change.itemID, default: RegisteredItem(limit: change.limit, id: change.itemID)].apply(change)
    }

    /// The items registered now under `limit`.
    public func registeredItems(limit: String) -> [RegisteredItem] {
        (items[limit] ?? [:]).values.filter(\.isRegistered).sorted { ($0.addedAt ?? .distantPast, $0.id) < ($1.addedAt ?? .distantPast, $1.id) }
    }

    /// Ask to Buy requests the app reported, by product id.
    public var pendingPurchases: [ProductID: PendingPurchase] = [:]

    /// The Ask to Buy requests awaiting a parent's answer at `now`, by product id.
    public func purchasesAwaitingApproval(at now: Date) -> [PendingPurchase] {
        pendingPurchases.values.filter { $0.isAwaitingApproval(at: now, purchases: purchases.values) }.sorted { $0.productID < $1.productID }
    }

    public init(
        appUserID: AppUserID, purchases: [OriginalTransactionID: SubscriptionFacts] = [:], appTrialStartedAt: Date? = nil,
        grants: [EntitlementGrant] = [], overrides: [AccessOverride] = [], usage: [UsageRecord] = [],
        timeZone: TimeZone = .utc
    ) {
        self.appUserID = appUserID
        self.purchases = purchases
        self.appTrialStartedAt = appTrialStartedAt
        self.grants = grants
        self.overrides = overrides
        self.usage = usage
        self.timeZone = timeZone
    }

    /// Records a signed transaction in its purchase chain.
    public mutating func record(_ transaction: JWSTransactionDecodedPayload) {
        guard let original = transaction.purchaseChain else { return }
        purchases[original, default: SubscriptionFacts(originalTransactionID: original)].record(transaction)
    }

    /// Records signed renewal info in its purchase chain.
    public mutating func record(_ info: JWSRenewalInfoDecodedPayload) {
        guard let original = info.purchaseChain else { return }
        purchases[original, default: SubscriptionFacts(originalTransactionID: original)].record(info)
    }

    /// Records the first launch; later launches don't move it.
    public mutating func recordFirstLaunch(at instant: Date) {
        appTrialStartedAt = min(appTrialStartedAt ?? instant, instant)
    }

    /// Records that `claimant` submitted the purchase `original` as theirs at `at` (the earliest claim of each stands).
    public mutating func recordClaim(on original: OriginalTransactionID, by claimant: String, at: Date) {
        purchaseClaims[original.rawValue, default: [:]][claimant] = min(purchaseClaims[original.rawValue]?[claimant] ?? at, at)
    }

    /// The chain `original` as a transfer carries it to another subscriber: its facts with the claims on it.
    public func carried(_ original: OriginalTransactionID) -> SubscriptionFacts? {
        guard var chain = purchases[original] else { return nil }
        for (claimant, at) in purchaseClaims[original.rawValue] ?? [:] { chain.recordClaim(by: AppUserID(claimant), at: at) }
        return chain
    }

    /// Records an Ask to Buy request for `productID`.
    public mutating func recordPurchaseRequest(productID: ProductID, at instant: Date) {
        pendingPurchases[productID, default: PendingPurchase(productID: productID, requestedAt: instant)].recordRequest(at: instant)
    }

    /// Records that an Ask to Buy request for `productID` was declined.
    public mutating func recordPurchaseDecline(productID: ProductID, at instant: Date) {
        // A decline seen before its request is kept, so the two in either order give the same facts.
        pendingPurchases[productID, default: PendingPurchase(productID: productID, requestedAt: .distantPast)].recordDecline(at: instant)
    }
}

extension SubscriberFacts {
    /// Decodes a projection; collections added since it was written start empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        appUserID = try container.decode(AppUserID.self, forKey: .appUserID)
        purchases = try container.decode([OriginalTransactionID: SubscriptionFacts].self, forKey: .purchases)
        appTrialStartedAt = try container.decodeIfPresent(Date.self, forKey: .appTrialStartedAt)
        appTrialExtensions = try container.decodeIfPresent([String: AppTrialExtension].self, forKey: .appTrialExtensions) ?? [:]
        purchaseClaims = try container.decodeIfPresent([String: [String: Date]].self, forKey: .purchaseClaims) ?? [:]
        grants = try container.decode([EntitlementGrant].self, forKey: .grants)
        overrides = try container.decode([AccessOverride].self, forKey: .overrides)
        usage = try container.decode([UsageRecord].self, forKey: .usage)
        timeZone = try container.decode(TimeZone.self, forKey: .timeZone)
        grantRevocations = try container.decodeIfPresent([String: Date].self, forKey: .grantRevocations) ?? [:]
        households = try container.decodeIfPresent([AppUserID: Membership].self, forKey: .households) ?? [:]
        overrideRemovals = try container.decodeIfPresent([String: Date].self, forKey: .overrideRemovals) ?? [:]
        pendingPurchases = try container.decodeIfPresent([ProductID: PendingPurchase].self, forKey: .pendingPurchases) ?? [:]
        attributeValues = try container.decodeIfPresent([String: StampedAttribute].self, forKey: .attributeValues) ?? [:]
        experiments = try container.decodeIfPresent([String: ExperimentEnrolment].self, forKey: .experiments) ?? [:]
        items = try container.decodeIfPresent([String: [String: RegisteredItem]].self, forKey: .items) ?? [:]
        consentRescindedAt = try container.decodeIfPresent(Date.self, forKey: .consentRescindedAt)
    }
}
