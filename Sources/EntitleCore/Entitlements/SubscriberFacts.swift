import AppStoreModels
import Foundation

/// Everything known about one subscriber (an app user, or a household): their purchase chains,
/// app-managed trial, operator grants and overrides, and metered usage.
public struct SubscriberFacts: Hashable, Sendable, Codable {
    public var appUserID: String
    /// Purchase chains by original transaction id.
    public var purchases: [String: SubscriptionFacts]
    /// The first launch that started the app-managed trial.
    public var appTrialStartedAt: Date?
    public var grants: [EntitlementGrant]
    public var overrides: [AccessOverride]
    public var usage: [UsageRecord]
    /// The subscriber's time zone, for calendar quota windows.
    public var timeZone: TimeZone
    /// Revocations of grants and removals of overrides seen before the grant or override itself, so
    /// events applied in any order give the same facts.
    public var grantRevocations: [String: Date] = [:]
    /// Household memberships: when the subscriber joined each household, and left it (if they did).
    public var households: [String: Membership] = [:]

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
    public func householdIDs(at now: Date) -> [String] {
        households.filter { $0.value.joinedAt <= now && ($0.value.leftAt.map { now < $0 } ?? true) }.keys.sorted()
    }
    public var overrideRemovals: [String: Date] = [:]

    public init(
        appUserID: String, purchases: [String: SubscriptionFacts] = [:], appTrialStartedAt: Date? = nil,
        grants: [EntitlementGrant] = [], overrides: [AccessOverride] = [], usage: [UsageRecord] = [],
        timeZone: TimeZone = TimeZone(identifier: "UTC")!
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
        guard let original = transaction.originalTransactionId ?? transaction.transactionId else { return }
        purchases[original, default: SubscriptionFacts(originalTransactionID: original)].record(transaction)
    }

    /// Records signed renewal info in its purchase chain.
    public mutating func record(_ info: JWSRenewalInfoDecodedPayload) {
        guard let original = info.originalTransactionId else { return }
        purchases[original, default: SubscriptionFacts(originalTransactionID: original)].record(info)
    }

    /// Records the first launch; later launches don't move it.
    public mutating func recordFirstLaunch(at instant: Date) {
        appTrialStartedAt = min(appTrialStartedAt ?? instant, instant)
    }
}
