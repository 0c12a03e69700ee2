import AppStoreModels
import Foundation

extension EntitlementResolver {
    /// When the subscriber's answer next changes with no new event, and to what; `nil` when nothing
    /// in the facts can change it within `horizon` of `now`.
    ///
    /// Pure: every instant at which a rule of the resolver can flip is collected from the facts and
    /// the answer at `now` (expiries, grace and billing-retry ends, revocations, the app trial's end and
    /// lockout, grants, overrides, memberships, the open-access window, quota resets); the first of
    /// them at which the resolved answer differs from the answer at `now` is the change. Answers are
    /// compared without their evaluation instant.
    ///
    /// Each candidate costs a resolution of the whole history, so a long one takes a while: when the
    /// task is cancelled the search stops and answers `nil`, and a caller that may be cancelled checks
    /// `Task.isCancelled` before trusting a `nil`.
    public func nextChange(
        of subscriber: SubscriberFacts, households: [SubscriberFacts] = [], openAccess: OpenAccessWindow? = nil, after now: Date,
        horizon: TimeInterval = 5 * 366 * 86_400
    ) -> AccessChange? {
        let current = resolve(subscriber, households: households, openAccess: openAccess, at: now)
        let limit = now.addingTimeInterval(horizon)
        let candidates = Self.instants(subscriber: subscriber, households: households, openAccess: openAccess, access: current)
            .filter { $0 > now && $0 <= limit }
            .sorted()
        for candidate in candidates {
            if Task.isCancelled { return nil }
            // A rule may flip at the instant itself (`now < end`) or just after it (`now <= end`).
            for instant in [candidate, candidate.addingTimeInterval(0.001)] {
                let later = resolve(subscriber, households: households, openAccess: openAccess, at: instant)
                if !Self.sameAnswer(current, later) { return AccessChange(at: instant, before: current, after: later) }
            }
        }
        return nil
    }

    /// Whether two answers agree on everything but the instant they were computed at.
    static func sameAnswer(_ lhs: SubscriberAccess, _ rhs: SubscriberAccess) -> Bool {
        var rhs = rhs
        rhs.evaluatedAt = lhs.evaluatedAt
        return lhs == rhs
    }

    /// Every instant at which some rule of the resolver may flip.
    static func instants(
        subscriber: SubscriberFacts, households: [SubscriberFacts], openAccess: OpenAccessWindow?, access: SubscriberAccess
    ) -> Set<Date> {
        var instants = Set<Date>()
        func add(_ date: Date?) { if let date { instants.insert(date) } }
        for facts in [subscriber] + households {
            for purchase in facts.purchases.values {
                for transaction in purchase.transactions.values {
                    add(transaction.expiresDate)
                    add(transaction.revocationDate)
                    add(transaction.purchaseDate)
                }
                add(purchase.renewalInfo?.gracePeriodExpiresDate)
                add(purchase.renewalInfo?.renewalDate)
            }
            for grant in facts.grants {
                add(grant.startsAt)
                add(grant.endsAt)
                add(grant.revokedAt)
            }
            for override in facts.overrides {
                add(override.startsAt)
                add(override.endsAt)
                add(override.removedAt)
            }
            for membership in facts.households.values {
                add(membership.joinedAt)
                add(membership.leftAt)
            }
            add(facts.appTrialStartedAt)
            for pending in facts.pendingPurchases.values {
                add(pending.requestedAt)
                add(pending.expiresAt)
                add(pending.declinedAt)
            }
        }
        add(openAccess?.startsAt)
        add(openAccess?.endsAt)
        for status in access.subscriptions {
            add(status.expiresAt)
            add(status.gracePeriodExpiresAt)
            add(status.revokedAt)
            add(status.entitledUntil)
        }
        for entitlement in access.entitlements { add(entitlement.expiresAt) }
        switch access.appTrial {
        case .active(let endsAt): add(endsAt)
        case .grace(let ended, let lockoutAt): add(ended); add(lockoutAt)
        case .lockout(let since): add(since)
        case .notStarted, .superseded: break
        }
        for quota in access.quotas { add(quota.resetsAt) }
        switch access.lapse?.reason {
        case .appGrace(let lockoutAt)?: add(lockoutAt)
        case .billingIssue(let endsAt)?: add(endsAt)
        case .quotaExhausted(_, let resetsAt)?: add(resetsAt)
        default: break
        }
        return instants
    }
}
