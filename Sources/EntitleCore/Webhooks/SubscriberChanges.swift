import Foundation

/// What happened between two answers about one subscriber: the pure rule webhooks are derived by.
///
/// Both answers are resolved by ``EntitlementResolver``: `before` as last reported, `after` with the
/// new facts (or later, when time alone changed the answer). Comparing answers rather than reading
/// the incoming notification's type means the same purchase reaching Entitle twice (from the app and
/// from Apple) is reported once, a change Apple never announced (an expiry, the end of a grace period,
/// a trial's lockout) is reported all the same, and nothing is reported that the answer doesn't show.
public enum SubscriberChanges {
    /// The changes from `before` to `after`, per purchase chain in the order of their original
    /// transaction IDs, then the app trial's, the quotas' and the registered items', newly flagged anomalies, and last `entitlement_changed` when the
    /// entitlements differ. A chain in `transferred` (moved by a purchase transfer) that is new to the
    /// subscriber is a `transfer`, as it is on the side that lost it.
    public static func between(_ before: SubscriberAccess, _ after: SubscriberAccess, transferred: Set<OriginalTransactionID> = []) -> [SubscriberChange] {
        var changes: [SubscriberChange] = []
        let old = Dictionary(before.subscriptions.map { ($0.originalTransactionID, $0) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(after.subscriptions.map { ($0.originalTransactionID, $0) }, uniquingKeysWith: { first, _ in first })
        for id in Set(old.keys).union(new.keys).sorted() {
            changes += chain(old[id], new[id]).map { change in
                guard old[id] == nil, transferred.contains(id), change.type == .initialPurchase || change.type == .familySharing else { return change }
                var moved = change
                moved.type = .transfer
                return moved
            }
        }
        changes += appTrial(before.appTrial, after.appTrial)
        let quotasBefore = Dictionary(before.quotas.map { ($0.feature, $0) }, uniquingKeysWith: { first, _ in first })
        for quota in after.quotas where quota.remaining == 0 {
            let earlier = quotasBefore[quota.feature]
            if earlier == nil || earlier?.remaining != 0, quota.used > (earlier?.used ?? 0) || earlier?.window != quota.window {
                changes.append(SubscriberChange(.quotaExhausted, feature: quota.feature))
            }
        }
        changes += items(before.items, after.items)
        if before.consentRescindedAt == nil, after.consentRescindedAt != nil { changes.append(SubscriberChange(.consentRescinded)) }
        let flagged = Set(before.anomalies.map(\.subject))
        for anomaly in after.anomalies where !flagged.contains(anomaly.subject) {
            var change = SubscriberChange(.anomalyFlagged, originalTransactionID: anomaly.originalTransactionID, feature: anomaly.feature)
            change.anomaly = anomaly
            changes.append(change)
        }
        if entitlementsDiffer(before, after) { changes.append(SubscriberChange(.entitlementChanged)) }
        return changes
    }

    /// Whether the entitlements differ in what the API shows of them: which, their states, from what
    /// product and period, until when, and what they renew to.
    public static func entitlementsDiffer(_ before: SubscriberAccess, _ after: SubscriberAccess) -> Bool {
        func shape(_ access: SubscriberAccess) -> [String] {
            access.entitlements.map { status in
                [status.id, "\(status.state)", status.productID?.rawValue ?? "", "\(status.expiresAt?.timeIntervalSince1970 ?? -1)", "\(status.willRenew)",
                 status.renewsToProductID?.rawValue ?? "", status.periodType?.rawValue ?? "", "\(status.isFamilyShared)"].joined(separator: "|")
            }
        }
        return shape(before) != shape(after)
    }

    /// The changes of one purchase chain (`nil` where the subscriber doesn't have it).
    static func chain(_ before: SubscriptionStatus?, _ after: SubscriptionStatus?) -> [SubscriberChange] {
        guard let after else {
            // Gone from the subscriber: moved to another (a transfer).
            guard let before else { return [] }
            return [SubscriberChange(.transfer, originalTransactionID: before.originalTransactionID, productID: before.productID)]
        }
        let id = after.originalTransactionID
        func change(_ type: WebhookEventType) -> SubscriberChange {
            SubscriberChange(type, originalTransactionID: id, productID: after.productID)
        }
        guard let before else {
            if after.isFamilyShared { return [change(.familySharing)] }
            // A purchase seen for the first time: reported when it grants or awaits something; an old,
            // lapsed purchase restored changes nothing worth an event beyond the entitlements'.
            return after.isEntitled ? [change(.initialPurchase)] : []
        }
        var changes: [SubscriberChange] = []
        if before.productID != after.productID {
            changes.append(SubscriberChange(.productChange, originalTransactionID: id, productID: after.productID, previousProductID: before.productID))
        } else if after.currentTransactionID != before.currentTransactionID, after.isEntitled,
            (after.purchasedAt ?? .distantPast) > (before.purchasedAt ?? .distantPast)
        {
            changes.append(change(.renewal))
        }
        if after.renewsToProductID != before.renewsToProductID, let target = after.renewsToProductID, target != after.productID {
            changes.append(SubscriberChange(.productChange, originalTransactionID: id, productID: target, previousProductID: after.productID))
        }
        if before.state != after.state {
            let failing: Set<SubscriptionState> = [.gracePeriod, .billingRetry]
            if failing.contains(after.state), !failing.contains(before.state) { changes.append(change(.billingIssue)) }
            if after.state == .gracePeriod { changes.append(change(.gracePeriodStarted)) }
            if before.state == .gracePeriod { changes.append(change(.gracePeriodEnded)) }
            if after.state == .expired { changes.append(change(.expiration)) }
            if after.state == .revoked { changes.append(change(.refund)) }
            if before.state == .revoked { changes.append(change(.refundReversed)) }
        }
        let live: Set<SubscriptionState> = [.trial, .active, .activeNotRenewing, .gracePeriod, .billingRetry]
        if after.kind == .autoRenewable, live.contains(before.state), live.contains(after.state), before.willRenew != after.willRenew {
            changes.append(change(after.willRenew ? .autoRenewEnabled : .autoRenewDisabled))
        }
        return changes
    }

    /// Registered items whose pause changed, both answers having them: paused by a lower limit, resumed by a
    /// higher one (or a removal that made room). Registering and removing are the app's own acts, not reported.
    static func items(_ before: [ItemStatus], _ after: [ItemStatus]) -> [SubscriberChange] {
        let old = Dictionary(before.map { ("\($0.limit)/\($0.id)", $0.isPaused) }, uniquingKeysWith: { first, _ in first })
        return after.compactMap { item in
            guard let wasPaused = old["\(item.limit)/\(item.id)"], wasPaused != item.isPaused else { return nil }
            return SubscriberChange(item.isPaused ? .itemPaused : .itemResumed, feature: item.limit, itemID: item.id)
        }
    }

    /// The app-managed trial's phase changes worth an event.
    static func appTrial(_ before: AppTrialPhase, _ after: AppTrialPhase) -> [SubscriberChange] {
        switch (before, after) {
        case (.notStarted, .active): [SubscriberChange(.appTrialStarted)]
        case (.notStarted, .grace), (.active, .grace): [SubscriberChange(.appTrialWarning)]
        case (.notStarted, .lockout), (.active, .lockout), (.grace, .lockout): [SubscriberChange(.appTrialLockout)]
        case (.active, .superseded), (.grace, .superseded), (.lockout, .superseded): [SubscriberChange(.appTrialConverted)]
        default: []
        }
    }
}
