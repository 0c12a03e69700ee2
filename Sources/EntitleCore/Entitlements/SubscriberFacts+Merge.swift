import Foundation

extension SubscriberFacts {
    /// Folds in the facts of an anonymous subscriber who logged in as this one (docs/identity.md has
    /// the table):
    /// - purchases: every chain moves here; a chain both know merges (latest signed versions win);
    /// - the app-managed trial: the earlier start stands, so logging in never starts a second trial;
    ///   support's extensions of either move, each once;
    /// - usage: every record moves, so uses in one quota window add up (records with the same
    ///   idempotency key for the same feature count once);
    /// - grants, overrides, household memberships and Ask to Buy requests: moved, each once;
    /// - attributes and the time zone: this subscriber's stand; the other's fill what this one never set;
    /// - registered items (paired devices): every one moves, a device both registered kept once;
    /// - experiment enrolments: this subscriber's stand, the other's fill experiments this one wasn't in,
    ///   so a device that logs in is served the variant the account already has, and never moves it.
    public mutating func absorb(_ other: SubscriberFacts) {
        for (id, chain) in other.purchases {
            purchases[id, default: SubscriptionFacts(originalTransactionID: id)].merge(chain)
        }
        if let start = other.appTrialStartedAt { recordFirstLaunch(at: start) }
        for (id, extension_) in other.appTrialExtensions where appTrialExtensions[id] == nil { appTrialExtensions[id] = extension_ }
        for (original, claims) in other.purchaseClaims {
            for (claimant, at) in claims { recordClaim(on: OriginalTransactionID(original), by: claimant, at: at) }
        }
        for record in other.usage
        where record.idempotencyKey == nil || !usage.contains(where: { $0.idempotencyKey == record.idempotencyKey && $0.feature == record.feature }) {
            usage.append(record)
        }
        usage.sort { ($0.at, $0.idempotencyKey ?? "") < ($1.at, $1.idempotencyKey ?? "") }
        for grant in other.grants where !grants.contains(where: { $0.id == grant.id }) { grants.append(grant) }
        grants.sort { ($0.startsAt, $0.id) < ($1.startsAt, $1.id) }
        for override in other.overrides where !overrides.contains(where: { $0.id == override.id }) { overrides.append(override) }
        overrides.sort { ($0.startsAt, $0.id) < ($1.startsAt, $1.id) }
        grantRevocations.merge(other.grantRevocations) { min($0, $1) }
        overrideRemovals.merge(other.overrideRemovals) { min($0, $1) }
        for (household, membership) in other.households where households[household] == nil { households[household] = membership }
        for (key, value) in other.attributeValues where attributeValues[key] == nil { attributeValues[key] = value }
        for (id, enrolment) in other.experiments where experiments[id] == nil { experiments[id] = enrolment }
        if let rescinded = other.consentRescindedAt { recordConsentRescinded(at: rescinded) }
        for (limit, registry) in other.items {
            for (id, item) in registry { items[limit, default: [:]][id, default: RegisteredItem(limit: limit, id: id)].merge(item) }
        }
        if timeZone.secondsFromGMT() == 0, ["UTC", "GMT"].contains(timeZone.identifier), other.timeZone.identifier != timeZone.identifier,
            !["UTC", "GMT"].contains(other.timeZone.identifier)
        {
            timeZone = other.timeZone
        }
        for (product, pending) in other.pendingPurchases {
            recordPurchaseRequest(productID: product, at: pending.requestedAt)
            if let declined = pending.declinedAt { recordPurchaseDecline(productID: product, at: declined) }
        }
    }
}
