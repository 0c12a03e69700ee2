import AppStoreModels
import EntitleCore
import EntitleWire
import Foundation

/// Turns the core's answers into the API's wire types.
enum SubscriberResponseBuilder {
    static func response(_ answer: SubscriberAnswer) -> SubscriberResponse {
        var response = response(answer.access, facts: answer.facts)
        response.appAccountToken = answer.appAccountToken
        response.accessPeriods = answer.accessPeriods.map { period in
            let gate = period.access.gate
            let names = gate.features + gate.limits + gate.quotas.map(\.feature)
            return AccessPeriod(
                from: period.from, until: period.until,
                decisions: Dictionary(names.map { ($0, AccessResponse(gate.decide($0), serverTime: period.from)) }, uniquingKeysWith: { first, _ in first }),
                gate: gate)
        }
        return response
    }

    static func response(_ access: SubscriberAccess, facts: SubscriberFacts) -> SubscriberResponse {
        let now = access.evaluatedAt
        let chains = access.subscriptions.map { info($0, at: now) }
        var trial = AppTrialInfo(phase: AppTrialPhaseValue(rawValue: access.appTrial.name), startedAt: facts.appTrialStartedAt, endsAt: nil, lockoutAt: nil)
        switch access.appTrial {
        case .active(let endsAt):
            // The warning days run from the trial's end to the lockout: both known from the start.
            (trial.endsAt, trial.lockoutAt) = (endsAt, access.catalog.appTrial?.grace.map { $0.added(to: endsAt) } ?? endsAt)
            trial.daysLeft = DaysLeft.until(endsAt, from: now)
        case .grace(let ended, let lockoutAt):
            (trial.endsAt, trial.lockoutAt) = (ended, lockoutAt)
            trial.daysLeft = DaysLeft.until(lockoutAt, from: now)
        case .lockout(let since): trial.lockoutAt = since
        case .notStarted, .superseded: break
        }
        var response = SubscriberResponse(
            appUserID: access.appUserID.rawValue, serverTime: access.evaluatedAt,
            entitlements: access.entitlements.map { status in
                EntitlementInfo(
                    id: status.id, isActive: status.isActive, state: EntitlementStateValue(rawValue: status.state.rawValue), source: EntitlementSourceKind(rawValue: status.source.kind),
                    productID: status.productID?.rawValue, expiresAt: status.expiresAt, willRenew: status.willRenew,
                    periodType: status.periodType?.rawValue, renewsToProductID: status.renewsToProductID?.rawValue,
                    isFamilyShared: status.isFamilyShared, limits: status.limits.mapValues(\.maximum))
            },
            subscriptions: chains.filter { $0.kind == .autoRenewable },
            purchases: chains.filter { $0.kind != .autoRenewable },
            pendingPurchases: access.pendingPurchases.map {
                PendingPurchaseInfo(productID: $0.productID.rawValue, requestedAt: $0.requestedAt, expiresAt: $0.expiresAt)
            },
            appTrial: trial,
            quotas: access.quotas.map(QuotaInfo.init),
            lapse: access.lapse.map { SubscriberResponse.Lapse(reason: AccessReasonCode(rawValue: $0.reason.code), paywall: Paywall(rawValue: $0.paywall.rawValue)) },
            attributes: facts.attributes.merging([SubscriberAttribute.timeZone.rawValue: facts.timeZone.identifier]) { _, zone in zone },
            items: access.items.map(item))
        response.consentRescindedAt = access.consentRescindedAt
        response.expiryGrace = access.expiryGrace.map { GraceInfo(startedAt: $0.start, lockoutAt: $0.end, daysLeft: DaysLeft.until($0.end, from: now)) }
        response.lastVerifiedAt = facts.purchases.values.compactMap(\.lastSignedAt).max()
        response.reminders = reminders(access)
        response.anomalies = access.anomalies.map(anomaly)
        response.provisionalGrant = access.catalog.policies.provisionalGrantHours.map { hours in
            let granted = access.catalog.products.compactMap { product -> (id: ProductID, entitlements: [String])? in
                let ids = access.catalog.entitlements(forProduct: product.id).map(\.id).sorted()
                return ids.isEmpty ? nil : (product.id, ids)
            }
            return ProvisionalGrantInfo(
                hours: hours, entitlements: Dictionary(uniqueKeysWithValues: granted.map { ($0.id.rawValue, $0.entitlements) }),
                access: Dictionary(uniqueKeysWithValues: granted.map { ($0.id.rawValue, access.catalog.access(forProduct: $0.id)) }))
        }
        return response
    }

    /// A flagged anomaly as the API shows it.
    static func anomaly(_ anomaly: Anomaly) -> AnomalyInfo {
        AnomalyInfo(
            kind: anomaly.kind.rawValue, since: anomaly.since, count: anomaly.count, threshold: anomaly.threshold,
            originalTransactionID: anomaly.originalTransactionID?.rawValue, appAccountToken: anomaly.appAccountToken, feature: anomaly.feature)
    }

    /// The reminders still ahead of `access`'s instant, earliest first.
    static func reminders(_ access: SubscriberAccess) -> [ReminderInfo] {
        Reminder.reminders(access).filter { $0.dueAt > access.evaluatedAt }.sorted { ($0.dueAt, $0.kind.rawValue) < ($1.dueAt, $1.kind.rawValue) }.map {
            ReminderInfo(
                kind: $0.kind.rawValue, dueAt: $0.dueAt, endsAt: $0.endsAt, daysLeft: DaysLeft.until($0.endsAt, from: $0.dueAt),
                originalTransactionID: $0.originalTransactionID?.rawValue, productID: $0.productID?.rawValue, willRenew: $0.willRenew)
        }
    }

    static func item(_ status: ItemStatus) -> ItemInfo {
        ItemInfo(limit: status.limit, id: status.id, name: status.name, addedAt: status.addedAt, isPaused: status.isPaused)
    }

    static func info(_ status: SubscriptionStatus, at now: Date) -> SubscriptionInfo {
        var info = SubscriptionInfo(
            originalTransactionID: status.originalTransactionID.rawValue, productID: status.productID.rawValue, kind: PurchaseKind(rawValue: status.kind.rawValue),
            state: SubscriptionStateValue(rawValue: status.state.rawValue), appleStatus: status.appleStatus.map { Int($0.rawValue) }, willRenew: status.willRenew,
            renewsToProductID: status.renewsToProductID?.rawValue, purchasedAt: status.purchasedAt, expiresAt: status.expiresAt,
            gracePeriodExpiresAt: status.gracePeriodExpiresAt, periodType: status.periodType.rawValue,
            expirationReason: status.expirationReason?.rawValue, revocationCause: status.revocationCause?.rawValue,
            isFamilyShared: status.isFamilyShared, environment: status.environment?.rawValue, renewalChange: status.renewalChange?.rawValue,
            commitment: status.commitment.map {
                CommitmentInfo(billingPeriod: $0.billingPeriod, totalBillingPeriods: $0.totalBillingPeriods, endsAt: $0.endsAt, price: $0.price, renews: $0.renews)
            })
        info.redundant = status.isRedundant ? true : nil
        info.renewalOffer = status.renewalOffer.map { RenewalOfferInfo(periodType: PeriodType(offer: $0.type).rawValue, offerID: $0.offerID) }
        info.latestTransactionID = status.currentTransactionID
        info.daysLeft = status.entitledUntil.map { DaysLeft.until($0, from: now) }
        return info
    }

    static func access(_ answer: AccessAnswer) -> AccessResponse {
        AccessResponse(answer.decision, serverTime: answer.at)
    }
}
