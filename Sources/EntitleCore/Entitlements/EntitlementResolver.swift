import AppStoreModels
import Foundation

/// Resolves what a subscriber is entitled to at an instant, from their facts and the catalog.
///
/// Pure: the same facts, catalog and instant always give the same ``SubscriberAccess``. Sources, in
/// order of preference when several give the same entitlement: purchases (through
/// ``SubscriptionLifecycle``), households the subscriber belongs to, operator grants, the global
/// open-access switch, and the app-managed trial with its warning period and lockout.
public struct EntitlementResolver: Sendable {
    public let catalog: Catalog

    public init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// - Parameters:
    ///   - households: the households the subscriber belongs to; their active entitlements are shared.
    ///   - openAccess: the global switch, when an operator turned it on.
    public func resolve(
        _ subscriber: SubscriberFacts, households: [SubscriberFacts] = [], openAccess: OpenAccessWindow? = nil, at now: Date
    ) -> SubscriberAccess {
        var statuses = subscriber.purchases.values.compactMap { facts -> SubscriptionStatus? in
            guard var status = SubscriptionLifecycle.status(
                of: facts, at: now, nonRenewingDuration: facts.currentTransaction?.productId.flatMap { catalog.product(ProductID($0))?.period })
            else { return nil }
            status.renewalChange = status.renewsToProductID.flatMap { catalog.change(from: status.productID, to: $0)?.kind }
            return status
        }
        .sorted { ($0.purchasedAt ?? .distantPast, $0.originalTransactionID) > ($1.purchasedAt ?? .distantPast, $1.originalTransactionID) }

        var best: [String: EntitlementStatus] = [:]
        func offer(_ candidate: EntitlementStatus) {
            if let existing = best[candidate.id], !candidate.isPreferred(over: existing) { return }
            best[candidate.id] = candidate
        }
        func limits(_ id: String) -> [String: Allowance] { catalog.entitlement(id)?.access.limits ?? [:] }

        for status in statuses {
            var state = EntitlementState(status.state), until = status.entitledUntil ?? status.expiresAt
            // An app that keeps access during billing retry (`policies.billingRetryAccess`): as in Apple's
            // grace period, allowed with a warning, until Apple's longest retry has passed.
            if catalog.policies.billingRetryAccess, status.state == .billingRetry, let expires = status.expiresAt {
                let retryEnds = expires.addingTimeInterval(AccessPolicies.billingRetryLimit)
                if now < retryEnds { (state, until) = (.gracePeriod, retryEnds) }
            }
            for entitlement in catalog.entitlements(forProduct: status.productID) {
                offer(EntitlementStatus(
                    id: entitlement.id, state: state,
                    source: .purchase(originalTransactionID: status.originalTransactionID), productID: status.productID,
                    expiresAt: until, willRenew: status.willRenew,
                    periodType: status.periodType, renewsToProductID: status.renewsToProductID,
                    isFamilyShared: status.isFamilyShared, limits: entitlement.access.limits))
            }
        }
        // Ask to Buy: the requested product's entitlements show as pending until the answer.
        let awaitingApproval = subscriber.purchasesAwaitingApproval(at: now)
        for pending in awaitingApproval {
            for entitlement in catalog.entitlements(forProduct: pending.productID) {
                offer(EntitlementStatus(
                    id: entitlement.id, state: .pending, source: .pendingPurchase(productID: pending.productID), productID: pending.productID,
                    expiresAt: pending.expiresAt, limits: entitlement.access.limits))
            }
        }
        var householdGrants = Set<String>()
        for household in households where household.appUserID != subscriber.appUserID {
            let shared = resolve(household, at: now)
            for status in shared.entitlements where status.isActive {
                householdGrants.insert(status.id)
                var inherited = status
                inherited.source = .household(id: household.appUserID)
                offer(inherited)
            }
        }
        markRedundant(&statuses, householdGrants: householdGrants)
        for grant in subscriber.grants where catalog.entitlement(grant.entitlementID) != nil && grant.startsAt <= now {
            let active = grant.isActive(at: now)
            offer(EntitlementStatus(
                id: grant.entitlementID, state: active ? .granted : .expired, source: .grant(id: grant.id),
                expiresAt: [grant.endsAt, grant.revokedAt].compactMap { $0 }.min(), limits: limits(grant.entitlementID)))
        }
        if let openAccess, openAccess.isActive(at: now) {
            let ids = openAccess.entitlementIDs.isEmpty ? catalog.entitlements.map(\.id) : openAccess.entitlementIDs
            for id in ids where catalog.entitlement(id) != nil {
                offer(EntitlementStatus(id: id, state: .granted, source: .openAccess, expiresAt: openAccess.endsAt, limits: limits(id)))
            }
        }

        // The app-managed trial, superseded by the first store purchase that granted anything.
        let firstPurchase = statuses.filter { !catalog.entitlements(forProduct: $0.productID).isEmpty }
            .compactMap { $0.originalPurchasedAt ?? $0.purchasedAt }.min()
        var appTrial = AppTrialPhase.notStarted
        var isLockedOut = false
        var expiryGrace: DateInterval?
        if let policy = catalog.appTrial {
            appTrial = policy.phase(startedAt: subscriber.appTrialStartedAt, purchasedAt: firstPurchase, extraDays: subscriber.appTrialExtraDays, at: now)
            switch appTrial {
            case .active(let endsAt):
                for id in policy.entitlementIDs {
                    offer(EntitlementStatus(id: id, state: .trial, source: .appTrial, expiresAt: endsAt, periodType: .trial, limits: limits(id)))
                }
            case .grace(_, let lockoutAt):
                for id in policy.graceEntitlementIDs {
                    offer(EntitlementStatus(id: id, state: .appGrace, source: .appTrial, expiresAt: lockoutAt, limits: limits(id)))
                }
            case .lockout(let since):
                isLockedOut = true
                for id in policy.entitlementIDs {
                    offer(EntitlementStatus(id: id, state: .lockout, source: .appTrial, expiresAt: since, limits: limits(id)))
                }
            case .notStarted, .superseded:
                break
            }
            // The warning period after a paid subscription ended, then lockout.
            if policy.graceAfterSubscriptionExpiry, let grace = policy.grace, !best.values.contains(where: \.isActive),
                let ended = statuses.filter({ ($0.state == .expired || $0.state == .billingRetry) && !catalog.entitlements(forProduct: $0.productID).isEmpty })
                    .compactMap(\.expiresAt).max()
            {
                let lockoutAt = grace.added(to: ended)
                let inGrace = now < lockoutAt
                isLockedOut = !inGrace
                if inGrace, ended < lockoutAt { expiryGrace = DateInterval(start: ended, end: lockoutAt) }
                for id in policy.graceEntitlementIDs {
                    offer(EntitlementStatus(
                        id: id, state: inGrace ? .appGrace : .lockout, source: .expiryGrace, expiresAt: lockoutAt, limits: limits(id)))
                }
            }
        }

        let entitlements = best.values.sorted { $0.id < $1.id }
        var access = catalog.free
        var warnedAccess = AccessLevel.nothing
        for status in entitlements where status.isActive {
            guard let level = catalog.entitlement(status.id)?.access else { continue }
            if status.state.warns { warnedAccess = warnedAccess.union(level) } else { access = access.union(level) }
        }
        if isLockedOut, let policy = catalog.appTrial { access = access.union(policy.lockoutAccess) }
        let isOverridden = subscriber.overrides.contains { $0.isActive(at: now) }

        let quotas = catalog.quotas.map { definition in
            QuotaStatus.evaluate(
                feature: definition.name, window: definition.window,
                allowance: isOverridden ? .unlimited : max(access.quota(definition.name), warnedAccess.quota(definition.name)),
                records: subscriber.usage, timeZone: subscriber.timeZone, now: now)
        }

        var answer = SubscriberAccess(
            appUserID: subscriber.appUserID, evaluatedAt: now, entitlements: entitlements, subscriptions: statuses,
            pendingPurchases: awaitingApproval,
            appTrial: appTrial, isLockedOut: isLockedOut, isOverridden: isOverridden, access: access,
            warnedAccess: warnedAccess, quotas: quotas,
            lapse: lapse(entitlements: entitlements, statuses: statuses, appTrial: appTrial), catalog: catalog)
        // Registered items under each of the catalog's limits: the newest beyond the allowance paused.
        answer.consentRescindedAt = subscriber.consentRescindedAt
        answer.expiryGrace = expiryGrace
        answer.appTrialStartedAt = subscriber.appTrialStartedAt
        answer.anomalies = AnomalyDetector.anomalies(in: subscriber, catalog: catalog, at: now)
        answer.items = ItemStatus.statuses(of: subscriber.items.filter { catalog.limits.contains($0.key) }, allowance: answer.allowance(forLimit:))
        return answer
    }

    /// Marks the renewing subscriptions whose every entitlement another active source also grants: an
    /// earlier purchase of the subscriber's own (two household members buying at once, a second purchase in
    /// another group), or a household they belong to. The earliest purchase is never redundant, so of two
    /// equal ones exactly one is.
    private func markRedundant(_ statuses: inout [SubscriptionStatus], householdGrants: Set<String>) {
        let live = statuses.indices.filter { statuses[$0].isEntitled && !statuses[$0].isFamilyShared }
        func order(_ status: SubscriptionStatus) -> (Date, String) {
            (status.originalPurchasedAt ?? status.purchasedAt ?? .distantPast, status.originalTransactionID.rawValue)
        }
        // Every resolve runs this: each live purchase's grants are looked up once, earliest first.
        let byAge = live.map { ($0, Set(catalog.entitlements(forProduct: statuses[$0].productID).map(\.id))) }
            .sorted { order(statuses[$0.0]) < order(statuses[$1.0]) }
        var earlier = householdGrants
        for (index, granted) in byAge {
            if statuses[index].kind == .autoRenewable, statuses[index].willRenew, !granted.isEmpty {
                statuses[index].isRedundant = granted.isSubset(of: earlier)
            }
            earlier.formUnion(granted)
        }
    }

    /// Why a subscriber without paid access lacks it, and which paywall fits; `nil` while an
    /// entitlement is active other than through a warning period.
    private func lapse(
        entitlements: [EntitlementStatus], statuses: [SubscriptionStatus], appTrial: AppTrialPhase
    ) -> (reason: AccessReason, paywall: PaywallTrigger)? {
        if entitlements.contains(where: { $0.isActive && $0.state != .appGrace }) { return nil }
        let granting = statuses.filter { !catalog.entitlements(forProduct: $0.productID).isEmpty }
        if granting.contains(where: { $0.state == .billingRetry }) {
            return (.billingIssue(gracePeriodEndsAt: nil), .updatePayment)
        }
        let ended = granting.filter { [.expired, .revoked, .upgraded].contains($0.state) }
            .max { ($0.revokedAt ?? $0.expiresAt ?? .distantPast) < ($1.revokedAt ?? $1.expiresAt ?? .distantPast) }
        if let ended {
            if ended.state == .revoked { return (.revoked, .subscribe) }
            if ended.periodType == .trial { return (.trialExpired, .convertTrial) }
            return (.expired, .renew)
        }
        switch appTrial {
        case .grace, .lockout: return (.trialExpired, .convertTrial)
        default: return (.noSubscription, .subscribe)
        }
    }
}
