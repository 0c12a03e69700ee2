import AppStoreModels
import Foundation

extension SubscriberFacts: LedgerFolding {
    /// The facts of `appUserID` from its events, folded in Apple's order.
    ///
    /// Recording is commutative for Apple's data (latest signed version wins), and the fold sorts by
    /// ``LedgerEvent/precedes(_:_:)`` for operator actions, so duplicates, reordering and replays of
    /// the same events give the same facts.
    public static func fold(appUserID: AppUserID, events: [LedgerEvent]) -> SubscriberFacts {
        LedgerFold.fold(events, into: SubscriberFacts(appUserID: appUserID))
    }

    /// Applies one event. Apple's data, usage, grants and overrides give the same facts in any order
    /// (revocations seen first are kept until their grant arrives), so a projection can be updated
    /// one event at a time as events arrive.
    public mutating func apply(_ event: LedgerEvent) {
        switch event.payload {
        case .notification(let type, _, let transaction, let renewalInfo):
            if let transaction { record(transaction) }
            if let renewalInfo { record(renewalInfo) }
            if type == .rescindConsent { recordConsentRescinded(at: event.signedDate ?? event.receivedAt) }
            if let reversal = event.refundReversal {
                purchases[reversal.originalTransactionID, default: SubscriptionFacts(originalTransactionID: reversal.originalTransactionID)]
                    .recordRefundReversal(transactionID: reversal.transactionID, signedDate: reversal.signedDate)
            }
        case .transaction(let transaction):
            record(transaction)
        case .renewalInfo(let info):
            record(info)
        case .purchaseRequested(let productID, let at):
            recordPurchaseRequest(productID: productID, at: at)
        case .purchaseDeclined(let productID, let at):
            recordPurchaseDecline(productID: productID, at: at)
        case .appTrialStarted(let at):
            recordFirstLaunch(at: at)
        case .appTrialExtended(let extension_):
            appTrialExtensions[extension_.id] = extension_
        case .usage(let record):
            if record.idempotencyKey == nil || !usage.contains(where: { $0.idempotencyKey == record.idempotencyKey && $0.feature == record.feature }) {
                usage.append(record)
                usage.sort { ($0.at, $0.idempotencyKey ?? "") < ($1.at, $1.idempotencyKey ?? "") }
            }
        case .grant(var grant):
            guard !grants.contains(where: { $0.id == grant.id }) else { break }
            if let revoked = grantRevocations[grant.id] { grant.revokedAt = min(grant.revokedAt ?? revoked, revoked) }
            grants.append(grant)
            grants.sort { ($0.startsAt, $0.id) < ($1.startsAt, $1.id) }
        case .grantRevoked(let id, let at):
            grantRevocations[id] = min(grantRevocations[id] ?? at, at)
            if let index = grants.firstIndex(where: { $0.id == id }) {
                grants[index].revokedAt = min(grants[index].revokedAt ?? at, at)
            }
        case .override(var override):
            guard !overrides.contains(where: { $0.id == override.id }) else { break }
            if let removed = overrideRemovals[override.id] { override.removedAt = min(override.removedAt ?? removed, removed) }
            overrides.append(override)
            overrides.sort { ($0.startsAt, $0.id) < ($1.startsAt, $1.id) }
        case .overrideRemoved(let id, let at):
            overrideRemovals[id] = min(overrideRemovals[id] ?? at, at)
            if let index = overrides.firstIndex(where: { $0.id == id }) {
                overrides[index].removedAt = min(overrides[index].removedAt ?? at, at)
            }
        case .purchaseTransferred:
            switch event.transferEffect(for: appUserID) {
            case .removed(let original)?: purchases.removeValue(forKey: original)
            case .received(let original, let facts)?:
                purchases[original, default: SubscriptionFacts(originalTransactionID: original)].merge(facts)
                // Every claim on the purchase, this subscriber's own among them: they took it from another.
                for (claimant, at) in facts.claims ?? [:] { recordClaim(on: original, by: claimant, at: at) }
            case nil: break
            }
        case .householdJoined(let household, let at):
            // The latest join wins over an earlier leave; a leave after the join ends the membership.
            if let existing = households[household], existing.joinedAt >= at { break }
            let leftAt = households[household]?.leftAt.flatMap { $0 > at ? $0 : nil }
            households[household] = Membership(joinedAt: at, leftAt: leftAt)
        case .householdLeft(let household, let at):
            if let existing = households[household] {
                if existing.joinedAt < at { households[household]?.leftAt = max(existing.leftAt ?? at, at) }
            } else {
                households[household] = Membership(joinedAt: .distantPast, leftAt: at)
            }
        case .openAccessSet:
            // Global, not a subscriber's: the service reads the latest one from the ledger.
            break
        case .paywall, .experimentChanged:
            // What the paywall did grants nothing: the funnels read it. Experiments are global: the
            // service reads them from the ledger.
            break
        case .experimentEnrolled(let enrolment):
            recordEnrolment(enrolment)
        case .item(let change):
            recordItemChange(change)
        case .appTransactionLinked:
            break
        case .purchaseClaimed(let original, let claimant, let at):
            if claimant != appUserID { recordClaim(on: original, by: claimant.rawValue, at: at) }
        case .subscriberErased(let at):
            erasedAt = min(erasedAt ?? at, at)
        case .timeZoneSet(let identifier):
            if let zone = TimeZone(identifier: identifier) { timeZone = zone }
        case .subscriberMerged(_, let into, let facts):
            if into == appUserID, let facts { absorb(facts) }
        case .attributesSet(let values):
            for (key, value) in values {
                recordAttribute(key, value, at: event.signedDate ?? event.receivedAt)
            }
        }
    }
}
