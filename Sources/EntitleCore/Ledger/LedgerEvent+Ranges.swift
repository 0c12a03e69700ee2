import AppStoreModels
import Foundation

extension LedgerEvent {
    /// The first value of the event outside ``AppStoreValueRanges``, if any: its instants and Apple's
    /// data it carries. Inputs are checked at the edge, so only an event stored before those checks
    /// holds one; a background consumer sets such an event aside rather than compute with it.
    public var outOfRangeValue: OutOfRangeValue? {
        if let problem = Self.instant("signedDate", signedDate) ?? Self.instant("receivedAt", receivedAt) { return problem }
        switch payload {
        case .notification(_, _, let transaction, let renewalInfo):
            return transaction?.outOfRangeValue ?? renewalInfo?.outOfRangeValue
        case .transaction(let transaction):
            return transaction.outOfRangeValue
        case .renewalInfo(let renewalInfo):
            return renewalInfo.outOfRangeValue
        case .purchaseRequested(_, let at), .purchaseDeclined(_, let at), .appTrialStarted(let at), .grantRevoked(_, let at),
            .overrideRemoved(_, let at), .householdJoined(_, let at), .householdLeft(_, let at), .purchaseClaimed(_, _, let at),
            .subscriberErased(let at):
            return Self.instant("at", at)
        case .usage(let record):
            return Self.instant("usage.at", record.at)
        case .appTrialExtended(let extension_):
            return Self.instant("appTrialExtension.at", extension_.at)
        case .paywall(let event):
            return Self.instant("paywall.at", event.at)
        case .item(let change):
            return Self.instant("item.at", change.at)
        case .experimentEnrolled(let enrolment):
            return Self.instant("experiment.at", enrolment.at)
        case .experimentChanged(let experiment):
            return Self.instant("experiment.createdAt", experiment.createdAt) ?? Self.instant("experiment.startedAt", experiment.startedAt)
                ?? Self.instant("experiment.endedAt", experiment.endedAt)
        case .grant(let grant):
            return Self.instant("grant.startsAt", grant.startsAt) ?? Self.instant("grant.endsAt", grant.endsAt)
                ?? Self.instant("grant.revokedAt", grant.revokedAt)
        case .override(let override):
            return Self.instant("override.startsAt", override.startsAt) ?? Self.instant("override.endsAt", override.endsAt)
                ?? Self.instant("override.removedAt", override.removedAt)
        case .openAccessSet(let window):
            return Self.instant("openAccess.startsAt", window?.startsAt) ?? Self.instant("openAccess.endsAt", window?.endsAt)
        case .purchaseTransferred, .timeZoneSet, .subscriberMerged, .attributesSet, .appTransactionLinked:
            return nil
        }
    }

    private static func instant(_ field: String, _ value: Date?) -> OutOfRangeValue? {
        OutOfRangeValue.instant("event.\(field)", value)
    }
}
